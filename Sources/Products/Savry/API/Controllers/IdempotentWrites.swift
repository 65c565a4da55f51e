import SavryDomain
import EventSourcing
import Foundation
import Hummingbird
import HTTPServing

extension Request {
    /// The event id of a write: named by the client's `Idempotency-Key` per user and action, so a
    /// retried request is recorded once; a new one without a key.
    func eventId(userId: Int64, action: String) throws -> UUID {
        guard let key = try idempotencyKey() else { return .timeOrdered() }
        return SavryCatalog.derivedEventId(from: "request:\(userId):\(action):\(key)")
    }
}
