import NuvieDomain
import EventSourcing

/// Nuvie's events in the log: the engine's event store over Nuvie's catalog.
public typealias NuvieStore = EventStore<NuvieCatalog>
