import ChatDomain
import EventSourcing

/// The chat product's events in the log: the engine's event store over its catalog.
public typealias ChatStore = EventStore<ChatCatalog>
