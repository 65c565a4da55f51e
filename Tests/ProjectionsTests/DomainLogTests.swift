@testable import NuvieCommands
@testable import EventSourcing
import NuvieDomain
import EventLog
import Foundation
import TestSupport
import Testing

/// Commands fold their streams through `NuvieStore`, which keeps each stream's state between decisions.
@Suite(.timeLimit(.minutes(3))) struct DomainLogTests {
    private func rated(_ stars: Double, review: Bool = false, in store: NuvieStore) throws -> NewEvent {
        try store.newEventWithPreparedKeys(.movieRated(MovieRated(userId: 1, movieId: 2, rating: stars, previousRating: nil, comment: nil, isReview: review)))
    }

    @Test func aStreamsStateIsItsEventsFoldedWhateverWasKept() async throws {
        let directory = try TemporaryDirectory()
        let log = try EventLog(configuration: .init(directory: directory.url.appendingPathComponent("log"), initialMapSize: 1 << 20))
        defer { log.close() }
        let domain = NuvieStore(log: log, personalData: try testKeyStore(in: directory))
        func fresh(_ stream: String) throws -> RatingState { RatingState.fold(try log.readStream(stream).map(domain.decode)) }
        func rated(_ stars: Double, review: Bool = false) throws -> NewEvent { try self.rated(stars, review: review, in: domain) }

        _ = try await log.append(to: "rating-1-2", expectedVersion: .noStream, events: [try rated(3), try rated(4, review: true)])
        let first = try domain.state(of: "rating-1-2", as: RatingState.self)
        #expect(first.state == (try fresh("rating-1-2")) && first.version == 2 && first.state.reviewId == 2)
        _ = try await log.append(to: "other", expectedVersion: .any, events: [try rated(1)])
        _ = try await log.append(to: "rating-1-2", expectedVersion: .exact(2), events: [try rated(5)])
        let again = try domain.state(of: "rating-1-2", as: RatingState.self)
        #expect(again.state == (try fresh("rating-1-2")) && again.version == 3)
        #expect(again.state.rating == 5 && again.state.reviewId == 2)
        let missing = try domain.state(of: "missing", as: RatingState.self)
        #expect(missing.version == 0 && missing.state == RatingState())
    }

    @Test func keptStatesAreBoundedAndForgetTheLeastRecentlyUsed() {
        let kept = FoldedStreams(maximumStreams: 4)
        for index in 0..<4 { kept.keep(rating(3), version: 1, of: "s\(index)", keyDestructions: 0) }
        _ = kept.state(RatingState.self, of: "s0", keyDestructions: 0)
        kept.keep(rating(3), version: 1, of: "s4", keyDestructions: 0)
        #expect(kept.state(RatingState.self, of: "s1", keyDestructions: 0) == nil && kept.state(RatingState.self, of: "s2", keyDestructions: 0)?.version == 1)
        #expect(kept.state(RatingState.self, of: "s0", keyDestructions: 0) != nil && kept.state(RatingState.self, of: "s4", keyDestructions: 0) != nil)
        #expect(kept.state(WatchlistState.self, of: "s0", keyDestructions: 0) == nil, "each state type of a stream is kept apart")
    }

    /// Two decisions folding one stream at once: the one folded further is kept.
    @Test func aStateFoldedFurtherIsNeverReplacedByAnEarlierOne() {
        let kept = FoldedStreams()
        kept.keep(rating(5), version: 7, of: "s", keyDestructions: 0)
        kept.keep(rating(2), version: 6, of: "s", keyDestructions: 0)
        #expect(kept.state(RatingState.self, of: "s", keyDestructions: 0)?.state == rating(5))
    }

    private func rating(_ stars: Double) -> RatingState {
        var state = RatingState()
        state.rating = stars
        return state
    }
}
