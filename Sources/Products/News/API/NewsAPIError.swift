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
        switch refusal {
        case .conflict: self.init(.conflict, "Preferences changed while the request ran", details: "Retry the request")
        case .idempotencyKeyReused:
            self.init(.unprocessableContent, "Idempotency-Key already used", details: "It was used for a different request; use a new key for a new request")
        case .invalidIdempotencyKey(let message): self = .badRequest("Invalid request", message)
        case .storageFull:
            self.init(.serviceUnavailable, "Storage full", details: "Nothing was saved; retry later")
            headers[.retryAfter] = "30"
        case .logUnreachable(let outcomeUnknown):
            self.init(.serviceUnavailable, "Event log unreachable", details: outcomeUnknown ? "It may have been saved; retry the same request" : "Nothing was saved; retry")
            headers[.retryAfter] = "2"
        case .readOnly: self.init(.methodNotAllowed, "Read-only", details: "This server shows a past state of the log and records nothing")
        case .readModelsBehind:
            self.init(.serviceUnavailable, "Saved but not yet visible", details: "Retry the read shortly")
            headers[.retryAfter] = "1"
        case .notCaughtUp:
            self.init(.serviceUnavailable, "Not caught up", details: "This server has not yet caught up with X-Min-Position; nothing was done, retry shortly")
            headers[.retryAfter] = "1"
        case .shuttingDown:
            self.init(.serviceUnavailable, "The server is stopping", details: "Retry the request")
            headers[.retryAfter] = "1"
        case .operatorRequest(.invalid(let message, _)): self = .badRequest("Invalid request", message)
        case .operatorRequest(.conflict(let message)): self.init(.conflict, "Conflict", details: message)
        case .operatorRequest(.notFound(let message)): self.init(.notFound, "Not found", details: message)
        case .operatorRequest(.unsupportedMediaType(let message)): self.init(.unsupportedMediaType, "Unsupported media type", details: message)
        case .noSuchRoute: self.init(.notFound, "Not found", details: "No such endpoint")
        case .methodNotAllowed: self.init(.methodNotAllowed, "Method not allowed")
        case .bodyTooLarge(let limit): self.init(.contentTooLarge, "Request body is too large", details: limit.map { "At most \($0 >> 10) KB" } ?? "Larger than this endpoint takes")
        case .malformedHTTP:
            self.init(.badRequest, "The request is not well-formed HTTP")
            headers[.connection] = "close"
        case .headersTooLarge: self.init(.requestHeaderFieldsTooLarge, "The request's headers are too large", details: "At most 80 KB")
        case .notAProxy: self.init(.methodNotAllowed, "CONNECT is not supported", details: "this server is not a proxy")
        case .otherClientError(let status, let message): self.init(status, message ?? status.reasonPhrase)
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
        case .unknownTicker(let ticker): .badRequest("Unknown ticker", "\(ticker) is not an S&P 500 constituent this server knows")
        case .invalid: .badRequest("Invalid request", refusal.description)
        }
    }
}
