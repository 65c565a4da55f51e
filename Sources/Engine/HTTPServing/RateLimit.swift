import Foundation
import Hummingbird
import Metrics
import NIOConcurrencyHelpers

/// How many requests one caller may make: `requestsPerMinute` on average, in bursts of up to `burst`.
public struct RateLimit: Sendable, Equatable {
    public var requestsPerMinute: Int
    public var burst: Int

    public init(requestsPerMinute: Int, burst: Int) {
        self.requestsPerMinute = requestsPerMinute
        self.burst = burst
    }

    /// Enough for any person using an app (10 requests a second on average, bursts of 120), not
    /// enough for a script hammering one account: the default of Nuvie, Savry and Chat.
    public static let perPerson = RateLimit(requestsPerMinute: 600, burst: 120)
}

extension RateLimit {
    /// `<PREFIX>_RATE_LIMIT_PER_MINUTE` and `…_BURST`, each checked, over `default`; nil when either is 0 (off).
    public init?(_ settings: EnvironmentSettings, prefix: String, default limit: RateLimit) throws {
        let perMinute = try settings.integer("\(prefix)_RATE_LIMIT_PER_MINUTE", in: 0...1_000_000) ?? limit.requestsPerMinute
        let burst = try settings.integer("\(prefix)_RATE_LIMIT_BURST", in: 0...1_000_000) ?? limit.burst
        guard perMinute > 0, burst > 0 else { return nil }
        self.init(requestsPerMinute: perMinute, burst: burst)
    }
}

/// Token buckets, one per caller key (a signed-in user, or an IP address for anonymous requests).
public final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private let limit: RateLimit
    private let buckets = NIOLockedValueBox<[String: Bucket]>([:])
    private static let pruneThreshold = 10_000

    public init(_ limit: RateLimit) {
        self.limit = limit
    }

    /// nil when the request may go ahead, else the whole seconds until the caller may retry.
    public func take(_ key: String, now: ContinuousClock.Instant = .now) -> Int? {
        let perSecond = Double(limit.requestsPerMinute) / 60
        let capacity = Double(limit.burst)
        return buckets.withLockedValue { buckets in
            if buckets.count > Self.pruneThreshold { prune(&buckets, now: now, perSecond: perSecond, capacity: capacity) }
            var bucket = buckets[key] ?? Bucket(tokens: capacity, updated: now)
            bucket.tokens = min(capacity, bucket.tokens + Self.seconds(now - bucket.updated) * perSecond)
            bucket.updated = now
            defer { buckets[key] = bucket }
            guard bucket.tokens >= 1 else { return max(1, Int(((1 - bucket.tokens) / perSecond).rounded(.up))) }
            bucket.tokens -= 1
            return nil
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Forgets callers whose bucket has refilled: they are indistinguishable from new ones.
    private func prune(_ buckets: inout [String: Bucket], now: ContinuousClock.Instant, perSecond: Double, capacity: Double) {
        buckets = buckets.filter { $0.value.tokens + Self.seconds(now - $0.value.updated) * perSecond < capacity }
    }
}

/// Refuses a caller who has used up their bucket with the product's error (`refusal`, given the
/// seconds until they may retry: a 429 with `Retry-After`). Mount it after authentication, so a
/// signed-in user is limited as themself wherever they connect from. `/health`, `/health/live` and
/// `/metrics` are never limited.
public struct RateLimitMiddleware<Context: RemoteAddressRequestContext, Refusal: Error>: RouterMiddleware {
    let limiter: RateLimiter
    let user: @Sendable (Context) -> Int64?
    let refusal: @Sendable (_ retryAfterSeconds: Int) -> Refusal
    static var exempt: Set<String> { ["/health", "/health/live", "/metrics"] }
    private let limited = Counter(label: "engine_rate_limited_total")

    public init(
        _ limit: RateLimit, user: @escaping @Sendable (Context) -> Int64?, refusal: @escaping @Sendable (_ retryAfterSeconds: Int) -> Refusal
    ) {
        limiter = RateLimiter(limit)
        self.user = user
        self.refusal = refusal
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !Self.exempt.contains(request.uri.path) else { return try await next(request, context) }
        let key = user(context).map { "user:\($0)" } ?? "ip:\(context.remoteAddress?.clientNetwork ?? "unknown")"
        if let retryAfter = limiter.take(key) {
            limited.increment()
            throw refusal(retryAfter)
        }
        return try await next(request, context)
    }
}
