import SavryDomain
import EventSourcing
import Foundation
import Hummingbird
import SavryProjections

/// What every write needs after its append: to answer only once the read models show it, so a
/// read right after a write sees it.
public struct ReadYourWrites: Sendable {
    let runner: SavryRunner
    let timeout: Duration

    public init(runner: SavryRunner, timeout: Duration) {
        self.runner = runner
        self.timeout = timeout
    }

    /// Waits until the read models include `position`; 503 when they do not within the timeout.
    func wait(for position: UInt64) async throws {
        guard await runner.waitUntilApplied(position, timeout: timeout) else { throw SavryAPIError.projectionsBehind() }
    }
}

extension Request {
    /// The client's `Idempotency-Key` names the event, so a retried request is recorded once. Keys are
    /// per user and per action. Without one, every request is a new event.
    func eventId(userId: Int64, action: String) throws -> UUID {
        guard let key = headers.first(where: { $0.name.canonicalName == "idempotency-key" })?.value else { return .timeOrdered() }
        guard (1...255).contains(key.utf8.count) else { throw SavryAPIError.badRequest("Idempotency-Key must be 1–255 characters") }
        return SavryCatalog.derivedEventId(from: "request:\(userId):\(action):\(key)")
    }
}
