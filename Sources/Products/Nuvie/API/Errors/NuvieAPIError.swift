import Foundation
import Hummingbird
import NIOCore

/// An error that knows its HTTP response: `{"error":{"code","message","details"}}`.
public struct NuvieAPIError: HTTPResponseError, Equatable {
    public var status: HTTPResponse.Status
    public var code: String
    public var message: String
    public var details: [String: String]
    public var headers: HTTPFields = [:]

    public init(_ status: HTTPResponse.Status, code: String, message: String, details: [String: String] = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.details = details
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = try NuvieJSON.encoder().encode(Envelope(error: .init(code: code, message: message, details: details)))
        var headers = self.headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    private struct Envelope: Encodable {
        struct Body: Encodable {
            var code: String
            var message: String
            var details: [String: String]
        }
        var error: Body
    }

}

extension NuvieAPIError {
    public static func authenticationRequired(_ message: String) -> NuvieAPIError {
        NuvieAPIError(.unauthorized, code: "AUTHENTICATION_REQUIRED", message: message)
    }

    /// A token that no longer opens anything: expired, signed out, or its user erased.
    static let tokenRefused = authenticationRequired("The access token is invalid, expired or signed out; sign in again or refresh it")

    public static func validation(_ message: String, field: String? = nil) -> NuvieAPIError {
        NuvieAPIError(.badRequest, code: "VALIDATION_ERROR", message: message, details: field.map { ["field": $0] } ?? [:])
    }

    public static func ratingInvalid(_ message: String) -> NuvieAPIError {
        NuvieAPIError(.badRequest, code: "RATING_INVALID", message: message, details: ["field": "rating"])
    }

    public static func movieNotFound(_ movieId: Int64) -> NuvieAPIError {
        NuvieAPIError(.notFound, code: "MOVIE_NOT_FOUND", message: "Movie with ID \(movieId) not found", details: ["movie_id": "\(movieId)"])
    }

    public static func userNotFound(_ message: String) -> NuvieAPIError {
        NuvieAPIError(.notFound, code: "USER_NOT_FOUND", message: message)
    }

    public static func reviewNotFound(_ reviewId: Int64) -> NuvieAPIError {
        NuvieAPIError(.notFound, code: "REVIEW_NOT_FOUND", message: "Review with ID \(reviewId) not found", details: ["review_id": "\(reviewId)"])
    }

    public static func forbidden(_ message: String) -> NuvieAPIError {
        NuvieAPIError(.forbidden, code: "FORBIDDEN", message: message)
    }

    public static func rateLimited(retryAfterSeconds: Int) -> NuvieAPIError {
        var error = NuvieAPIError(
            .tooManyRequests, code: "RATE_LIMIT_EXCEEDED", message: "Too many requests; retry after \(retryAfterSeconds) s",
            details: ["retry_after_seconds": "\(retryAfterSeconds)"]
        )
        error.headers[.retryAfter] = "\(retryAfterSeconds)"
        return error
    }

    public static let unsupportedMediaType = NuvieAPIError(
        .unsupportedMediaType, code: "UNSUPPORTED_MEDIA_TYPE", message: "Send the request body as Content-Type: application/json",
        details: ["header": "Content-Type"]
    )

    /// The read models show `position`, and what it recorded is no longer so: a request retried under
    /// its `Idempotency-Key` after later changes (a friend request since cancelled, say). The first
    /// answer cannot be given again, and "retry" would never help.
    public static func changedSince(position: UInt64) -> NuvieAPIError {
        NuvieAPIError(
            .conflict, code: "CONFLICT", message: "This request was recorded earlier and what it did has changed since; read the current state",
            details: ["position": "\(position)"]
        )
    }

    public static let internalError = NuvieAPIError(.internalServerError, code: "INTERNAL_ERROR", message: "An unexpected error occurred")
}
