import HTTPServing
import JSONText
import Hummingbird

/// A request body that must be a JSON object sent as `application/json` (else 415), read strictly
/// (`StrictJSON`: no trailing commas, no repeated keys).
enum RequestObject {
    static func read(_ request: Request, context: NewsRequestContext, example: String) async throws -> [String: JSONValue] {
        let body = try await request.body.collect(atMost: context.maxUploadSize)
        guard request.headers.declaresJSON else {
            throw NewsAPIError(.unsupportedMediaType, "Unsupported media type", details: "Send application/json")
        }
        guard case .object(let fields) = try? StrictJSON.parse(Array(body.readableBytesView)) else {
            throw NewsAPIError.badRequest("Invalid JSON", "The body must be a JSON object such as \(example)")
        }
        return fields
    }
}
