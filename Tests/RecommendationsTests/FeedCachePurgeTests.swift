import Foundation
import GRDB
import TestSupport
import Testing
@testable import NuvieRecommendations

/// The recommendation cache after an erasure empties it: a list made before, by a feed request
/// still under way, is not stored after (it may name the erased user), in the file or in memory, and
/// the WAL's old pages go though a feed read is under way.
@Suite struct FeedCachePurgeTests {
    static func list(_ user: Int64, at now: Date) -> RecommendationList {
        RecommendationList(
            requestId: "r", userId: user, model: ModelInfo(name: "ibcf", version: "v1", trainedAt: now), generatedAt: now, ttlSeconds: 900, items: [], offset: 0
        )
    }

    @Test func aListMadeBeforeTheCacheWasEmptiedIsNotStoredAfter() async throws {
        let directory = try TemporaryDirectory()
        let cache = try RecommendationFeedCache(path: directory.url.appendingPathComponent("cache/recommendation-feed.sqlite").path)
        defer { try? cache.close() }
        let now = Date()
        let list = { (user: Int64) in Self.list(user, at: now) }
        let before = cache.purges
        try await cache.forgetEveryone()
        try cache.store(list(1), stamp: "s", madeAfter: before)
        #expect(try cache.fresh(userId: 1, stamp: "s", now: now) == nil)

        try cache.store(list(2), stamp: "s", madeAfter: cache.purges)
        #expect(try cache.fresh(userId: 2, stamp: "s", now: now)?.userId == 2)
    }

    /// The truncation failed at once (SQLITE_BUSY) while any feed read was under way, and the
    /// erasure went on with the lists' old pages in the WAL.
    @Test(.timeLimit(.minutes(1))) func theWALIsTruncatedThoughAFeedReadIsUnderWay() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("cache/recommendation-feed.sqlite").path
        let cache = try RecommendationFeedCache(path: path)
        defer { try? cache.close() }
        try cache.store(Self.list(1, at: Date()), stamp: "s", madeAfter: cache.purges)
        let reader = try DatabaseQueue(path: path)
        // On a thread of its own, so a busy test pool cannot delay its end past the busy timeout.
        await withCheckedContinuation { (reading: CheckedContinuation<Void, Never>) in
            Thread {
                try? reader.inTransaction(.deferred) { db in
                    _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM recommendation_feed")
                    reading.resume()
                    Thread.sleep(forTimeInterval: 0.3)
                    return .commit
                }
            }.start()
        }
        try await cache.forgetEveryone()
        let wal = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int
        #expect(wal == 0)
    }
}
