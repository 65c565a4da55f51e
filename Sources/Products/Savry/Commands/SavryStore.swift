import EventSourcing
import SavryDomain

/// Savry's events in the log: the engine's event store over Savry's catalog.
public typealias SavryStore = EventStore<SavryCatalog>
