import Foundation
import Hummingbird
import NIOCore

/// An error that knows its HTTP response, in the contract's error shape:
/// `{"error": "<kind>", "message": "<for a person>", "detail": "<what exactly>"}`.
public struct ChatAPIError: HTTPResponseError, Equatable {
    public var status: HTTPResponse.Status
    public var error: String
    public var message: String
    public var detail: String
    public var headers: HTTPFields = [:]

    public init(_ status: HTTPResponse.Status, _ error: String, _ message: String, detail: String) {
        self.status = status
        self.error = error
        self.message = message
        self.detail = detail
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try body())))
    }

    func body() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(["error": error, "message": message, "detail": detail])
    }

}

extension ChatAPIError {
    /// DRF's wording. 401, not the 403 the contract's troubleshooting shows: with token
    /// authentication first, as the contract's settings have it, DRF answers 401 with
    /// `WWW-Authenticate: Token`, and the contract's checklist says 401.
    static var notAuthenticated: ChatAPIError {
        var error = ChatAPIError(.unauthorized, "not_authenticated", "Authentication credentials were not provided.", detail: "Send Authorization: Token <token>; log in at POST /api/login/ to get one")
        error.headers[.wwwAuthenticate] = "Token"
        return error
    }

    static func invalidToken(_ detail: String) -> ChatAPIError {
        var error = ChatAPIError(.unauthorized, "authentication_failed", "Invalid token.", detail: detail)
        error.headers[.wwwAuthenticate] = "Token"
        return error
    }

    static func invalid(_ field: String, _ reason: String) -> ChatAPIError {
        ChatAPIError(.badRequest, "validation_error", "\(field) \(reason)", detail: field)
    }

    static let invalidCredentials = ChatAPIError(
        .badRequest, "invalid_credentials", "Unable to log in with provided credentials.", detail: "The email or the password is wrong"
    )

    static let unsupportedMediaType = ChatAPIError(
        .unsupportedMediaType, "unsupported_media_type", "Unsupported media type",
        detail: "Send application/json, or multipart/form-data where files are accepted (POST /api/send-chat/)"
    )

    static func sessionNotFound(_ sessionId: Int64) -> ChatAPIError {
        ChatAPIError(.notFound, "session_not_found", "Session not found", detail: "No session \(sessionId) belongs to this user")
    }

    static let emptyMessage = ChatAPIError(.badRequest, "empty_message", "Hmm… I didn't catch that.", detail: "message is empty: type a message")

    public static let internalError = ChatAPIError(.internalServerError, "server_error", "An unexpected error occurred", detail: "The request id in X-Request-Id finds it in the server's log")

    static func throttled(retryAfterSeconds: Int, _ detail: String) -> ChatAPIError {
        var error = ChatAPIError(.tooManyRequests, "throttled", "Request was throttled. Expected available in \(retryAfterSeconds) seconds.", detail: detail)
        error.headers[.retryAfter] = "\(retryAfterSeconds)"
        return error
    }

    static func rateLimited(retryAfterSeconds: Int) -> ChatAPIError {
        throttled(retryAfterSeconds: retryAfterSeconds, "Too many requests from this user or address")
    }

    static func serviceUnavailable(_ detail: String, retryAfter: Int) -> ChatAPIError {
        var error = ChatAPIError(.serviceUnavailable, "service_unavailable", "The service is busy; retry shortly", detail: detail)
        error.headers[.retryAfter] = "\(retryAfter)"
        return error
    }
}
