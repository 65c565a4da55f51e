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
        return SuccessResponse(timestamp: NuvieJSON.timestamp(result.recordedAt))
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
