import HTTPServing
import NuvieDomain
import ReadModels
import EventSourcing
import NuvieCommands
import Foundation
import HTTPTypes
import Hummingbird
import NuvieProjections

extension ReadYourWrites {
    /// `{"success": true, "timestamp": …}` once the read models show `result`.
    func success(_ result: CommandResult) async throws -> SuccessResponse {
        try await wait(for: result.position)
        return SuccessResponse(timestamp: ContractJSON.timestamp(result.recordedAt))
    }
}

extension Request {
    /// The event id of a write: named by the client's `Idempotency-Key` per user and endpoint, so a
    /// retried request is recorded once; a new one without a key.
    func eventId(userId: Int64, action: String) throws -> UUID {
        guard let key = try idempotencyKey() else { return .timeOrdered() }
        return NuvieCatalog.derivedEventId(from: "request:\(userId):\(action):\(key)")
    }
}

extension Parameters {
    /// A numeric path id; anything else is a 400 naming the parameter.
    func id(_ name: String) throws -> Int64 {
        guard let raw = get(name), let id = Int64(raw), id > 0 else {
            throw NuvieAPIError.validation("\(name) must be a positive integer", field: name)
        }
        return id
    }
}
