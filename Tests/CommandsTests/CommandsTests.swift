import NuvieCommands
import NuvieDomain
import EventLog
import EventSourcing
import Foundation
import Testing

@Suite(.timeLimit(.minutes(1))) struct RatingCommandTests {
    @Test func givenAFilmWhenRatedThenARatingWithoutAPreviousOne() async throws {
        let scenario = try NuvieScenario()
        try await scenario.given(users: 1, films: [10])
        let recorded = try await scenario.when { _ = try await $0.rate(RateMovie(userId: 1, movieId: 10, rating: 4, comment: nil, isReview: false)) }
        #expect(recorded == [.movieRated(MovieRated(userId: 1, movieId: 10, rating: 4, previousRating: nil, comment: nil, isReview: false))])
    }

    @Test func givenARatingWhenRatedAgainThenTheNewOneCarriesThePrevious() async throws {
        let scenario = try NuvieScenario()
        try await scenario.given(users: 1, films: [10])
        try await scenario.given([(NuvieStreams.rating(userId: 1, movieId: 10), .movieRated(MovieRated(userId: 1, movieId: 10, rating: 3, previousRating: nil, comment: nil, isReview: false)))])
        let recorded = try await scenario.when { _ = try await $0.rate(RateMovie(userId: 1, movieId: 10, rating: 5, comment: "Better", isReview: true)) }
        #expect(recorded == [.movieRated(MovieRated(userId: 1, movieId: 10, rating: 5, previousRating: 3, comment: "Better", isReview: true))])
    }

    /// One user rating one film on many connections at once: each decision sees the one before it, so
    /// none is refused for contention and the ratings chain through `previousRating`.
    @Test func givenManyRatingsOfOneFilmAtOnceThenEachIsRecordedAfterThePrevious() async throws {
        let scenario = try NuvieScenario()
        try await scenario.given(users: 1, films: [10])
        let recorded = try await scenario.when { commands in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for n in 0..<32 {
                    group.addTask { _ = try await commands.rate(RateMovie(userId: 1, movieId: 10, rating: n % 5 + 1, comment: nil, isReview: false)) }
                }
                try await group.waitForAll()
            }
        }
        let ratings = recorded.compactMap { if case .movieRated(let rated) = $0 { rated } else { nil } }
        #expect(ratings.count == 32)
        #expect(ratings.first?.previousRating == nil)
        for (before, after) in zip(ratings, ratings.dropFirst()) { #expect(after.previousRating == before.rating) }
    }

    @Test func givenNoSuchUserWhenTheyRateThenNothingIsRecorded() async throws {
        let scenario = try NuvieScenario()
        try await scenario.given(users: 1, films: [10])
        try await scenario.whenRefused(NuvieDomainError.userNotFound(userId: 99)) {
            _ = try await $0.rate(RateMovie(userId: 99, movieId: 10, rating: 4, comment: nil, isReview: false))
        }
    }

    @Test func aRetryUnderTheSameIdRecordsNothingAndADifferentRequestUnderItIsRefused() async throws {
        let scenario = try NuvieScenario()
        try await scenario.given(users: 1, films: [10])
        let id = NuvieCatalog.derivedEventId(from: "request:1:rate:10:k")
        let first = try await scenario.when { _ = try await $0.rate(RateMovie(userId: 1, movieId: 10, rating: 2, comment: nil, isReview: false), eventId: id) }
        #expect(first.count == 1)
        #expect(try await scenario.when { _ = try await $0.rate(RateMovie(userId: 1, movieId: 10, rating: 2, comment: nil, isReview: false), eventId: id) }.isEmpty)
        try await scenario.whenRefused(EventLogError.eventIdReused(eventId: id, position: scenario.log.headPosition)) {
            _ = try await $0.rate(RateMovie(userId: 1, movieId: 10, rating: 5, comment: nil, isReview: false), eventId: id)
        }
    }
}

@Suite(.timeLimit(.minutes(1))) struct SocialCommandTests {
    @Test func givenARequestWhenAcceptedThenTheyAreFriends() async throws {
        let scenario = try NuvieScenario()
        try await scenario.given(users: 2)
        try await scenario.given([(NuvieStreams.friendship(1, 2), .friendRequested(FriendRequested(fromUserId: 1, toUserId: 2)))])
        let recorded = try await scenario.when { _ = try await $0.answerFriendRequest(.accepted, from: 1, by: 2) }
        #expect(recorded == [.friendRequestAnswered(FriendRequestAnswered(fromUserId: 1, toUserId: 2, answer: .accepted))])
    }

    @Test func givenABlockWhenEitherAsksThenRefused() async throws {
        let scenario = try NuvieScenario()
        try await scenario.given(users: 2)
        try await scenario.given([(NuvieStreams.friendship(1, 2), .userBlocked(UserBlocked(userId: 1, blockedUserId: 2)))])
        try await scenario.whenRefused(NuvieDomainError.userNotFound(userId: 1)) { _ = try await $0.requestFriend(1, by: 2) }
        try await scenario.whenRefused(NuvieDomainError.blocked(userId: 2)) { _ = try await $0.requestFriend(2, by: 1) }
    }

    @Test func givenABlockWhenTheBlockedLikesTheBlockersReviewThenItIsNotThere() async throws {
        let scenario = try NuvieScenario()
        try await scenario.given(users: 2, films: [10])
        try await scenario.given([(NuvieStreams.rating(userId: 1, movieId: 10), .movieRated(MovieRated(userId: 1, movieId: 10, rating: 5, previousRating: nil, comment: "Great", isReview: true)))])
        let reviewId = Int64(scenario.log.headPosition)
        try await scenario.given([(NuvieStreams.friendship(1, 2), .userBlocked(UserBlocked(userId: 1, blockedUserId: 2)))])
        try await scenario.whenRefused(NuvieDomainError.reviewNotFound(reviewId: reviewId)) { _ = try await $0.likeReview(reviewId, by: 2) }
        let unblocked = try await scenario.when { _ = try await $0.unblock(2, by: 1) }
        #expect(unblocked == [.userUnblocked(UserUnblocked(userId: 1, blockedUserId: 2))])
        #expect(try await scenario.when { _ = try await $0.likeReview(reviewId, by: 2) }.count == 1)
    }
}

@Suite(.timeLimit(.minutes(1))) struct DecisionTests {
    @Test func aDecisionOfSeveralEventsRecordsEachUnderItsOwnIdAndARetryRecordsNone() async throws {
        let scenario = try NuvieScenario()
        let store = scenario.store
        let id = UUID()
        let decided: [NuvieEvent] = [.watchlistAdded(WatchlistAdded(userId: 1, movieId: 10)), .watchlistRemoved(WatchlistRemoved(userId: 1, movieId: 10))]
        let first = try await scenario.when { _ in _ = try await store.decideAndAppend("s", as: WatchlistState.self, eventId: id) { _ in decided } }
        #expect(first == decided)
        let ids = try scenario.log.read(from: 1, limit: 10).map(\.id)
        #expect(ids == [id, EventIds.nth(1, of: id, namespace: NuvieCatalog.eventIdNamespace)] && ids[0] != ids[1])
        #expect(try await scenario.when { _ in _ = try await store.decideAndAppend("s", as: WatchlistState.self, eventId: id) { _ in decided } }.isEmpty)
    }
}
