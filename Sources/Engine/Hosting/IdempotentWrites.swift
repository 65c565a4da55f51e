import EventLog
import EventSourcing
import Foundation
import HTTPServing
import Hummingbird

extension Request {
    /// The event id of a write: named by the client's `Idempotency-Key` per user and action, so a
    /// retried request is recorded once; a new one without a key.
    public func eventId<Catalog: EventCatalog>(of _: Catalog.Type, userId: Int64, action: String) throws -> UUID {
        guard let key = try idempotencyKey() else { return .timeOrdered() }
        return Catalog.derivedEventId(from: "request:\(userId):\(action):\(key)")
    }
}
