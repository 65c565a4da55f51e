import EventLog
import EventSourcing
import Foundation
import HTTPServing
import Hummingbird
import NewsDomain
import NIOCore
import NIOHTTP1
import ProductHosting
import ReadModels

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
    public static let connectRefusal = #"{"details":"this server is not a proxy","error":"CONNECT is not supported"}"#

    /// The response for any error a handler throws; nil when it is unexpected (a bug: 500).
    public static func mapping(_ error: any Error) -> NewsAPIError? {
        switch error {
        case let error as NewsAPIError: return error
        case let refusal as NewsRules.Refusal:
            switch refusal {
            case .invalidTicker(let ticker): return .badRequest("Invalid ticker format. Use 1-5 letters/numbers (e.g., AAPL, NVDA)", ticker)
            case .unknownTicker(let ticker): return .badRequest("Unknown ticker", "\(ticker) is not an S&P 500 constituent this server knows")
            case .invalid: return .badRequest("Invalid request", refusal.description)
            }
        case is ReadModelsBehind:
            var error = NewsAPIError(.serviceUnavailable, "Saved but not yet visible", details: "Retry the read shortly")
            error.headers[.retryAfter] = "1"
            return error
        case EventLogError.wrongExpectedVersion, CommandError.tooMuchContention:
            return NewsAPIError(.conflict, "Preferences changed while the request ran", details: "Retry the request")
        case is StorageFullError:
            var error = NewsAPIError(.serviceUnavailable, "Storage full", details: "Nothing was saved; retry later")
            error.headers[.retryAfter] = "30"
            return error
        case let error as OperatorRequestError:
            switch error {
            case .invalid(let message, _): return .badRequest("Invalid request", message)
            case .conflict(let message): return NewsAPIError(.conflict, "Conflict", details: message)
            case .notFound(let message): return NewsAPIError(.notFound, "Not found", details: message)
            case .unsupportedMediaType(let message): return NewsAPIError(.unsupportedMediaType, "Unsupported media type", details: message)
            }
        case is HTTPParserError:
            var error = NewsAPIError(.badRequest, "The request is not well-formed HTTP")
            error.headers[.connection] = "close"
            return error
        case let error as HTTPError where error.status == .notFound: return NewsAPIError(.notFound, "Not found", details: "No such endpoint")
        case let error as HTTPError where error.status == .methodNotAllowed: return NewsAPIError(.methodNotAllowed, "Method not allowed")
        case let error as HTTPError where (400..<500).contains(error.status.code): return NewsAPIError(error.status, error.body ?? error.status.reasonPhrase)
        case is NIOTooManyBytesError: return NewsAPIError(.contentTooLarge, "Request body is too large", details: "At most 64 KB")
        default: return nil
        }
    }
}
