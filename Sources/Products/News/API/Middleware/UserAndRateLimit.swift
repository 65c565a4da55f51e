import Foundation
import HTTPServing
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers

/// The user a request is for: `X-User-ID`, else `?user_id=`, else `defaultUser` (the contract's
/// development default, `1`, served in demo mode only). 1–64 letters, digits, `_ . @ -`; any other,
/// or none outside demo mode, is refused after the rate limit has counted the request against its
/// address (`RateLimitHeadersMiddleware`).
struct UserIdMiddleware: RouterMiddleware {
    typealias Context = NewsRequestContext
    let defaultUser: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let given = request.headers[.userId] ?? request.uri.queryParameters["user_id"].map(String.init)
        if let given, (1...64).contains(given.utf8.count), given.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "_.@-".contains($0)) }) {
            context.userId = given
        } else if given == nil, let defaultUser {
            context.userId = defaultUser
        } else {
            context.userIdRefusal = NewsAPIError.badRequest("User ID is required", "X-User-ID (or user_id) must be 1–64 letters, digits, _ . @ or -")
        }
        context.logger[metadataKey: "user.id"] = .string(context.userIdRefusal == nil ? context.userId : "invalid")
        return try await next(request, context)
    }
}

/// 100 requests a minute per user, in fixed 60-second windows, as the contract has it: every answer
/// carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (epoch seconds of
/// the window's end); past the limit, 429 `{"error": "Rate limit exceeded"}` with `Retry-After`.
/// The user is whoever `X-User-ID` claims, so one client naming a new user each time would be
/// unlimited: each client address also has ten times a user's limit in the same window. A request
/// naming no valid user counts against its address alone, and its headers give the address's limit.
final class NewsRateLimiter: Sendable {
    let limit: Int
    var limitPerAddress: Int { limit * 10 }
    /// Whose requests are counted.
    private enum Counted: Hashable {
        case user(String)
        case address(String)
    }

    /// The current window and each user's and address's count in it; a new window starts every count at 0.
    private let window = NIOLockedValueBox<(start: Int64, counts: [Counted: Int])>((0, [:]))

    init(limit: Int) {
        self.limit = limit
    }

    struct Taken {
        /// The user's limit, or the address's for a request with no valid user or past the address's.
        var limit: Int
        /// Left in the user's window, or the address's (negative: refused).
        var remaining: Int
        /// Whether the address had used its own limit (refused whatever the user's count).
        var addressExhausted: Bool
        var reset: Int64
    }

    /// Counts the request for the user (nil: none valid) and the address; what is left and when the
    /// window ends.
    func take(_ user: String?, address: String?, now: Int64 = Int64(Date().timeIntervalSince1970)) -> Taken {
        window.withLockedValue { window in
            let start = now - now % 60
            if window.start != start { window = (start, [:]) }
            var addressCount = 0
            if let address {
                addressCount = window.counts[.address(address), default: 0] + 1
                window.counts[.address(address)] = addressCount
            }
            let exhausted = addressCount > limitPerAddress
            guard let user, !exhausted else {
                return Taken(limit: limitPerAddress, remaining: limitPerAddress - addressCount, addressExhausted: exhausted, reset: start + 60)
            }
            let count = window.counts[.user(user), default: 0] + 1
            window.counts[.user(user)] = count
            return Taken(limit: limit, remaining: limit - count, addressExhausted: exhausted, reset: start + 60)
        }
    }
}

struct RateLimitHeadersMiddleware: RouterMiddleware {
    typealias Context = NewsRequestContext
    let limiter: NewsRateLimiter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let taken = limiter.take(context.userIdRefusal == nil ? context.userId : nil, address: context.remoteAddress?.clientNetwork)
        let headers: HTTPFields = [.rateLimitLimit: "\(taken.limit)", .rateLimitRemaining: "\(max(taken.remaining, 0))", .rateLimitReset: "\(taken.reset)"]
        guard taken.remaining >= 0, !taken.addressExhausted else {
            let details = taken.addressExhausted
                ? "\(limiter.limitPerAddress) requests per minute from one address; the window resets at \(taken.reset)"
                : "\(limiter.limit) requests per minute per user; the window resets at \(taken.reset)"
            var error = NewsAPIError(.tooManyRequests, "Rate limit exceeded", details: details)
            error.headers = headers
            error.headers[.retryAfter] = "\(max(1, taken.reset - Int64(Date().timeIntervalSince1970)))"
            throw error
        }
        do {
            if let refusal = context.userIdRefusal { throw refusal }
            var response = try await next(request, context)
            response.headers.append(contentsOf: headers)
            return response
        } catch {
            guard var response = try NewsAPIError.response(answering: error, from: request, context: context) else { throw error }
            response.headers.append(contentsOf: headers)
            return response
        }
    }
}

extension HTTPField.Name {
    static let userId = Self("X-User-ID")!
    static let rateLimitLimit = Self("X-RateLimit-Limit")!
    static let rateLimitRemaining = Self("X-RateLimit-Remaining")!
    static let rateLimitReset = Self("X-RateLimit-Reset")!
}

/// `base` for requests under `/v1` only, added at the router rather than on the `/v1` group, so that
/// what no route of the group answers (a path that does not exist, a method its path does not take:
/// both answered by the router) names its user, is counted and carries the headers too.
struct UnderV1<Base: MiddlewareProtocol>: RouterMiddleware where Base.Input == Request, Base.Output == Response, Base.Context == NewsRequestContext {
    let base: Base

    init(@MiddlewareFixedTypeBuilder<Request, Response, NewsRequestContext> _ build: () -> Base) {
        base = build()
    }

    func handle(_ request: Request, context: Base.Context, next: (Request, Base.Context) async throws -> Response) async throws -> Response {
        // The first component as the router finds it: empty ones (`//v1/feed`) are skipped.
        let path = request.uri.path.drop { $0 == "/" }
        guard path.hasPrefix("v1"), path.dropFirst(2).first.map({ $0 == "/" }) ?? true else { return try await next(request, context) }
        return try await base.handle(request, context: context, next: next)
    }
}
