import NuvieDomain
import ReadModels
import EventSourcing
import NuvieCommands
import Foundation
import HTTPTypes
import Hummingbird
import NuvieProjections

/// What every write endpoint needs after its append: to answer only once the projections show it.
public struct ReadYourWrites: Sendable {
    let runner: NuvieRunner
    let timeout: Duration

    public init(runner: NuvieRunner, timeout: Duration) {
        self.runner = runner
        self.timeout = timeout
    }

    /// Waits until the read models include `position`; 503 when they do not within the timeout.
    func wait(for position: UInt64) async throws {
        guard await runner.waitUntilApplied(position, timeout: timeout) else { throw APIError.projectionsBehind(position: position) }
    }

    /// `{"success": true, "timestamp": …}` once the read models show `result`.
    func success(_ result: CommandResult) async throws -> SuccessResponse {
        try await wait(for: result.position)
        return SuccessResponse(timestamp: ContractJSON.timestamp(result.recordedAt))
    }
}

extension Request {
    /// The client's `Idempotency-Key` names the event, so a retried request is recorded once. Keys are
    /// per user and per endpoint. Without one, every request is a new event.
    func eventId(userId: Int64, action: String) throws -> UUID {
        guard let key = headers.value(named: "Idempotency-Key") else { return .timeOrdered() }
        guard (1...255).contains(key.utf8.count) else {
            throw APIError.validation("Idempotency-Key must be 1–255 characters", field: "Idempotency-Key")
        }
        return EventCodec.derivedEventId(from: "request:\(userId):\(action):\(key)")
    }
}

extension Parameters {
    /// A numeric path id; anything else is a 400 naming the parameter.
    func id(_ name: String) throws -> Int64 {
        guard let raw = get(name), let id = Int64(raw), id > 0 else {
            throw APIError.validation("\(name) must be a positive integer", field: name)
        }
        return id
    }
}

extension HTTPFields {
    /// The first value of a header by case-insensitive name; for headers HTTPTypes has no constant for.
    func value(named name: String) -> String? {
        first { $0.name.canonicalName == name.lowercased() }?.value
    }
}
