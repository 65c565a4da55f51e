import Foundation
import TestSupport
import Testing
@testable import NuvieRecommendations

/// The recommendation cache after an erasure empties it: a list made before, by a feed request
/// still under way, is not stored after (it may name the erased user), in the file or in memory.
@Suite struct FeedCachePurgeTests {
    @Test func aListMadeBeforeTheCacheWasEmptiedIsNotStoredAfter() throws {
        let directory = try TemporaryDirectory()
        let cache = try RecommendationFeedCache(path: directory.url.appendingPathComponent("cache/recommendation-feed.sqlite").path)
        defer { try? cache.close() }
        let now = Date()
        let list = { (user: Int64) in
            RecommendationList(
                requestId: "r", userId: user, model: ModelInfo(name: "ibcf", version: "v1", trainedAt: now), generatedAt: now, ttlSeconds: 900, items: [], offset: 0
            )
        }
        let before = cache.purges
        try cache.forgetEveryone()
        try cache.store(list(1), stamp: "s", madeAfter: before)
        #expect(try cache.fresh(userId: 1, stamp: "s", now: now) == nil)

        try cache.store(list(2), stamp: "s", madeAfter: cache.purges)
        #expect(try cache.fresh(userId: 2, stamp: "s", now: now)?.userId == 2)
    }
}
