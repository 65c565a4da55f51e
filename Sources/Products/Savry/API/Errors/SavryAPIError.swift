import Foundation
import Hummingbird
import NIOCore

/// An error that knows its HTTP response, in the contract's one error shape: `{"message": "…"}`.
public struct SavryAPIError: HTTPResponseError, Equatable {
    public var status: HTTPResponse.Status
    public var message: String
    public var headers: HTTPFields = [:]

    public init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try Self.body(message))))
    }

    /// `{"message": …}` as bytes.
    public static func body(_ message: String) throws -> Data {
        try SavryJSON.encoder().encode(["message": message])
    }

}

extension SavryAPIError {
    static func rateLimited(retryAfterSeconds: Int) -> SavryAPIError {
        var error = SavryAPIError(.tooManyRequests, "Too many requests; retry after \(retryAfterSeconds) s")
        error.headers[.retryAfter] = "\(retryAfterSeconds)"
        return error
    }

    static func badRequest(_ message: String) -> SavryAPIError { SavryAPIError(.badRequest, message) }
    static func unauthorized(_ message: String) -> SavryAPIError { SavryAPIError(.unauthorized, message) }

    static func recipeNotFound(_ recipeId: String) -> SavryAPIError {
        SavryAPIError(.notFound, "Not found: no recipe \(recipeId)")
    }

    static let forbidden = SavryAPIError(.forbidden, "Forbidden: this recipe belongs to another user")
    static let unsupportedMediaType = SavryAPIError(.unsupportedMediaType, "Send the request body as Content-Type: application/json")
    public static let internalError = SavryAPIError(.internalServerError, "An unexpected error occurred")

    static func projectionsBehind() -> SavryAPIError {
        var error = SavryAPIError(.serviceUnavailable, "Your change is saved but not yet visible; retry the read shortly")
        error.headers[.retryAfter] = "1"
        return error
    }

    static var shuttingDown: SavryAPIError {
        var error = SavryAPIError(.serviceUnavailable, "The server is stopping; retry the request")
        error.headers[.retryAfter] = "1"
        return error
    }

    static func logUnreachable(outcomeUnknown: Bool) -> SavryAPIError {
        var error = SavryAPIError(.serviceUnavailable, "The server cannot reach its event log right now; " + (
            outcomeUnknown ? "the change may have been saved: retry it under the same Idempotency-Key, or, sent without one, check before sending it again" : "nothing was saved, retry"
        ))
        error.headers[.retryAfter] = "2"
        return error
    }

    static func storageFull() -> SavryAPIError {
        var error = SavryAPIError(.serviceUnavailable, "The server cannot record changes right now (its storage is full); nothing was saved, retry later")
        error.headers[.retryAfter] = "30"
        return error
    }
}
