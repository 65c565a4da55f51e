import Foundation
import Hummingbird
import SavryDomain
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

    /// Names the id only when it could be one: a 10,000-character path is not said back.
    static func recipeNotFound(_ recipeId: String) -> SavryAPIError {
        SavryAPIError(.notFound, RecipeId.isWellFormed(recipeId) ? "Not found: no recipe \(recipeId)" : "Not found: no such recipe (an id is 1–64 lowercase letters, digits and -)")
    }

    static let forbidden = SavryAPIError(.forbidden, "Forbidden: this recipe belongs to another user")
    static let unsupportedMediaType = SavryAPIError(.unsupportedMediaType, "Send the request body as Content-Type: application/json")
    public static let internalError = SavryAPIError(.internalServerError, "An unexpected error occurred")
}
