import Foundation
import HTTPServing
import Hummingbird
import NewsDomain
import NIOCore
import ProductHosting

/// An error in the contract's shape, `{"error": "…", "details": "…" | null}`.
public struct NewsAPIError: ContractError, Equatable {
    public var status: HTTPResponse.Status
    public var error: String
    public var details: String?
    public var headers: HTTPFields = [:]

    public init(_ status: HTTPResponse.Status, _ error: String, details: String? = nil) {
        self.status = status
        self.error = error
        self.details = details
    }

    struct Body: Encodable {
        var error: String
        @Nullable var details: String?
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "application/json"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(Body(error: error, details: details)))))
    }

    static func badRequest(_ error: String, _ details: String? = nil) -> NewsAPIError { NewsAPIError(.badRequest, error, details: details) }
    public static let internalError = NewsAPIError(.internalServerError, "Internal server error", details: "The request id in X-Request-Id finds it in the server's log")

    public init(_ refusal: EngineRefusal) {
        self.init(refusal.status, refusal.title, details: Self.details(refusal))
        headers = refusal.headers
    }

    /// News takes no `Idempotency-Key`: its one write sets the preferences whole, so sending it again
    /// is safe.
    private static func details(_ refusal: EngineRefusal) -> String {
        switch refusal {
        case .logUnreachable(outcomeUnknown: true):
            EngineRefusal.mayHaveBeenSaved + ": sending the same preferences again records nothing new"
        case .conflict, .idempotencyKeyReused, .invalidIdempotencyKey, .storageFull, .logUnreachable, .readOnly, .readModelsBehind, .notCaughtUp,
             .shuttingDown, .operatorRequest, .signInUnavailable, .noSuchRoute, .methodNotAllowed, .bodyTooLarge, .malformedHTTP, .headersTooLarge, .hostHeader, .notAProxy,
             .otherClientError:
            refusal.message
        }
    }

    /// The answer to News' own errors; nil for anything else (a bug: 500).
    public static func mapping(_ error: any Error) -> NewsAPIError? {
        switch error {
        case let error as NewsAPIError: error
        case let refusal as NewsRules.Refusal: mapping(refusal)
        // total: a switch over every error type; the engine's refusals are answered by `init(_:)`.
        default: nil
        }
    }

    private static func mapping(_ refusal: NewsRules.Refusal) -> NewsAPIError {
        switch refusal {
        case .invalidTicker(let ticker): .badRequest("Invalid ticker format. Use 1-5 letters/numbers (e.g., AAPL, NVDA)", ticker)
        case .invalid: .badRequest("Invalid request", refusal.description)
        }
    }
}
