import EventLog
import EventSourcing

/// Why the log, or a store beside it, refused a write: the engine's errors in the terms a client can
/// act on, so that the API maps them without reaching down to the log.
public enum WriteRefusal: Sendable, Equatable {
    /// The stream moved on while the command decided: retrying decides again.
    case conflict
    /// The request's idempotency key was already used for a different request.
    case idempotencyKeyReused
    /// A disk is full: the event log, the read models or the recommendation cache.
    case storageFull
    /// The log was opened read-only (a server showing a past state).
    case readOnly

    public init?(_ error: any Error) {
        switch error {
        case EventLogError.wrongExpectedVersion, CommandError.tooMuchContention: self = .conflict
        case EventLogError.partialDuplicate, EventLogError.eventIdReused: self = .idempotencyKeyReused
        case is StorageFullError: self = .storageFull
        case EventLogError.readOnly: self = .readOnly
        default: return nil
        }
    }
}
