import EventLog
import Foundation
import TestSupport
import Testing
@testable import NuvieRecommendations

/// The feed cache on a real, small tmpfs that is full: storing an entry does not fail the feed.
@Suite(.serialized) struct FeedCacheDiskFullTests {
    @Test(.enabled(if: TmpfsMount.isPermitted, "mounting a tmpfs needs root: disk-full test skipped"), .timeLimit(.minutes(2)))
    func onAFullDiskEntriesAreKeptInMemoryAndTheFailureIsReported() throws {
        let directory = try TemporaryDirectory()
        let disk = try TmpfsMount(at: directory.url.appendingPathComponent("disk"), megabytes: 4)
        defer { disk.unmount() }
        let cache = try RecommendationFeedCache(path: disk.url.appendingPathComponent("cache/recommendation-feed.sqlite").path)
        defer { try? cache.close() }
        let filler = disk.url.appendingPathComponent("filler")
        try disk.fill(with: filler)

        let now = Date()
        func list(for user: Int64) -> RecommendationList {
            RecommendationList(
                requestId: String(repeating: "r", count: 8_000), userId: user, model: ModelInfo(name: "ibcf", version: "v1", trainedAt: now),
                generatedAt: now, ttlSeconds: 900, items: [], offset: 0
            )
        }
        var user: Int64 = 0
        while cache.storageFailure == nil, user < 2_000 {
            user += 1
            try cache.store(list(for: user), stamp: "s", madeAfter: cache.purges)
        }
        #expect(cache.storageFailure?.error.store == .recommendationCache)
        #expect(try cache.fresh(userId: user, stamp: "s", now: now)?.userId == user)

        try FileManager.default.removeItem(at: filler)
        try cache.store(list(for: user + 1), stamp: "s", madeAfter: cache.purges)
        #expect(cache.storageFailure == nil)
    }
}
