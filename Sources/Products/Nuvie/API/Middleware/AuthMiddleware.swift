import Hummingbird

/// Reads `Authorization: Bearer …`. A valid access token of a registered user sets `context.userId`;
/// a present but invalid or expired one, or one whose user is not registered, is a 401. Routes that
/// need a user are mounted with `SignedInRequestContext`, which refuses a request without one.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let tokens: TokenService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization] else { return try await next(request, context) }
        guard let token = Self.bearerToken(header), let userId = try await tokens.userId(fromAccessToken: token) else {
            throw APIError.authenticationRequired("The access token is invalid or expired; sign in again or refresh it")
        }
        var context = context
        context.userId = userId
        context.logger[metadataKey: "user.id"] = .stringConvertible(userId)
        return try await next(request, context)
    }

    /// The token of `Bearer <token>` (the scheme in any case, blanks around the token ignored).
    /// Byte-wise: Foundation's `trimmingCharacters` bridged through `NSString` cost a tenth of a
    /// film request (BENCHMARKS.md).
    static func bearerToken(_ header: String) -> String? {
        let bytes = Array(header.utf8)
        let scheme = Array("bearer".utf8)
        guard bytes.count > scheme.count, bytes[scheme.count] == UInt8(ascii: " "),
              zip(bytes, scheme).allSatisfy({ $0 == $1 || $0 == $1 - 0x20 })
        else { return nil }
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes[(scheme.count + 1)...].firstIndex(where: { !isBlank($0) }),
              let last = bytes.lastIndex(where: { !isBlank($0) })
        else { return nil }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
