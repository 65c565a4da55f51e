import Foundation
import Hummingbird
import Metrics
import NuvieProjections
import Synchronization

/// How many requests one caller may make: `requestsPerMinute` on average, in bursts of up to `burst`.
public struct RateLimit: Sendable, Equatable {
    public var requestsPerMinute: Int
    public var burst: Int

    public init(requestsPerMinute: Int, burst: Int) {
        self.requestsPerMinute = requestsPerMinute
        self.burst = burst
    }
}

/// Token buckets, one per signed-in user, or per IP address for anonymous requests.
final class RateLimiter: Sendable {
    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    private let limit: RateLimit
    private let buckets = Mutex<[String: Bucket]>([:])
    private static let pruneThreshold = 10_000

    init(_ limit: RateLimit) {
        self.limit = limit
    }

    /// nil when the request may go ahead, else the whole seconds until the caller may retry.
    func take(_ key: String, now: ContinuousClock.Instant = .now) -> Int? {
        let perSecond = Double(limit.requestsPerMinute) / 60
        let capacity = Double(limit.burst)
        return buckets.withLock { buckets in
            if buckets.count > Self.pruneThreshold { prune(&buckets, now: now, perSecond: perSecond, capacity: capacity) }
            var bucket = buckets[key] ?? Bucket(tokens: capacity, updated: now)
            bucket.tokens = min(capacity, bucket.tokens + (now - bucket.updated).seconds * perSecond)
            bucket.updated = now
            defer { buckets[key] = bucket }
            guard bucket.tokens >= 1 else { return max(1, Int(((1 - bucket.tokens) / perSecond).rounded(.up))) }
            bucket.tokens -= 1
            return nil
        }
    }

    /// Forgets callers whose bucket has refilled: they are indistinguishable from new ones.
    private func prune(_ buckets: inout [String: Bucket], now: ContinuousClock.Instant, perSecond: Double, capacity: Double) {
        buckets = buckets.filter { $0.value.tokens + (now - $0.value.updated).seconds * perSecond < capacity }
    }
}

/// 429 `RATE_LIMIT_EXCEEDED` with `Retry-After` once a caller has used up their bucket. Runs after
/// authentication, so a signed-in user is limited as themself wherever they connect from.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let limiter: RateLimiter
    static let exempt: Set<String> = ["/health", "/metrics"]
    private let limited = Counter(label: "nuvie_rate_limited_total")

    init(_ limit: RateLimit) {
        limiter = RateLimiter(limit)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard !Self.exempt.contains(request.uri.path) else { return try await next(request, context) }
        let key = context.userId.map { "user:\($0)" } ?? "ip:\(context.remoteAddress?.ipAddress ?? "unknown")"
        if let retryAfter = limiter.take(key) {
            limited.increment()
            throw APIError.rateLimited(retryAfterSeconds: retryAfter)
        }
        return try await next(request, context)
    }
}
