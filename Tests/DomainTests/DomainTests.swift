import EventSourcing
@testable import NuvieDomain
import Foundation
import TestSupport
import Testing

private func recorded(_ event: NuvieEvent, at position: UInt64) -> Recorded<NuvieEvent> {
    Recorded(position: position, eventId: UUID(), streamId: "rating-1-10", streamVersion: position, recordedAt: Date(timeIntervalSince1970: 0), event: event)
}

private func rated(_ rating: Double, review: Bool = false) -> NuvieEvent {
    .movieRated(MovieRated(userId: 1, movieId: 10, rating: rating, previousRating: nil, comment: nil, isReview: review))
}

@Suite struct RateMovieTests {
    @Test func givenNoRatingWhenRatedThenARatingWithoutPrevious() throws {
        let event = try RateMovie(userId: 1, movieId: 10, rating: 4, comment: "  Great  ", isReview: true).decide(state: RatingState(), movieExists: true)
        #expect(event == MovieRated(userId: 1, movieId: 10, rating: 4, previousRating: nil, comment: "Great", isReview: true))
    }

    @Test func givenARatingWhenRatedAgainThenItCarriesThePreviousOne() throws {
        let state = RatingState.fold([recorded(rated(3.5), at: 4)])
        let event = try RateMovie(userId: 1, movieId: 10, rating: 5, comment: "", isReview: false).decide(state: state, movieExists: true)
        #expect(event.previousRating == 3.5)
        #expect(event.comment == nil)
    }

    @Test(arguments: [0, 6, -1, 100])
    func ratingsOutsideOneToFiveAreRefused(rating: Int) {
        #expect(throws: NuvieDomainError.self) { try RateMovie(userId: 1, movieId: 10, rating: rating, comment: nil, isReview: false).decide(state: RatingState(), movieExists: true) }
    }

    @Test func anUnknownMovieIsRefused() {
        #expect(throws: NuvieDomainError.movieNotFound(movieId: 10)) {
            try RateMovie(userId: 1, movieId: 10, rating: 3, comment: nil, isReview: false).decide(state: RatingState(), movieExists: false)
        }
    }

    @Test func theReviewIdIsThePositionOfTheFirstReview() {
        let state = RatingState.fold([recorded(rated(3), at: 2), recorded(rated(4, review: true), at: 9), recorded(rated(5, review: true), at: 12)])
        #expect(state.reviewId == 9)
        #expect(state.rating == 5)
    }

    @Test func halfStarsRoundUpToWholeStarsForTheApp() {
        #expect([0.5, 1.0, 2.5, 3.5, 4.5, 5.0].map(MovieRated.stars) == [1, 1, 3, 4, 5, 5])
    }
}

@Suite struct ReviewLikeTests {
    let review = ReviewRef(reviewId: 9, authorId: 1, movieId: 10)

    @Test func likingTwiceRecordsOneLike() throws {
        let first = try ReviewLikeDecision.like(review, by: 2, state: ReviewLikeState(), between: FriendshipState())
        #expect(first.count == 1)
        #expect(try ReviewLikeDecision.like(review, by: 2, state: ReviewLikeState.fold(first), between: FriendshipState()).isEmpty)
    }

    @Test func unlikingWhatIsNotLikedRecordsNothing() throws {
        #expect(ReviewLikeDecision.unlike(review, by: 2, state: ReviewLikeState()).isEmpty)
        let liked = try ReviewLikeDecision.like(review, by: 2, state: ReviewLikeState(), between: FriendshipState())
        #expect(ReviewLikeDecision.unlike(review, by: 2, state: ReviewLikeState.fold(liked)).count == 1)
    }

    @Test func aBlockEitherWayHidesTheReviewFromTheLikerButNotFromItsAuthor() throws {
        let blocked = FriendshipState.fold([.userBlocked(UserBlocked(userId: 1, blockedUserId: 2))])
        #expect(throws: NuvieDomainError.reviewNotFound(reviewId: 9)) {
            try ReviewLikeDecision.like(review, by: 2, state: ReviewLikeState(), between: blocked)
        }
        #expect(try ReviewLikeDecision.like(review, by: 1, state: ReviewLikeState(), between: blocked).count == 1)
        let liked = try ReviewLikeDecision.like(review, by: 2, state: ReviewLikeState(), between: FriendshipState())
        #expect(ReviewLikeDecision.unlike(review, by: 2, state: ReviewLikeState.fold(liked)).count == 1)
    }
}

@Suite struct NuvieCatalogTests {
    /// A sample of every case, so that each is written and read back.
    static let everyCase: [NuvieEvent] = [
        .movieAdded(MovieAdded(movieId: 1, title: "Heat", genres: ["Action"], year: 1995, tmdbId: 949, imdbId: "tt0113277")),
        .movieTagged(MovieTagged(userId: 1, movieId: 1, tag: "heist")),
        .identityClaimed(IdentityClaimed(identity: Identity(provider: .apple, subject: "001.abc"), userId: 7)),
        .userRegistered(UserRegistered(userId: 7, name: "Sarah", email: nil, avatarUrl: nil, provider: .apple)),
        rated(4.5, review: true),
        .reviewLiked(ReviewLiked(reviewId: 9, userId: 2, reviewAuthorId: 1, movieId: 10)),
        .reviewUnliked(ReviewUnliked(reviewId: 9, userId: 2, reviewAuthorId: 1, movieId: 10)),
        .watchlistAdded(WatchlistAdded(userId: 1, movieId: 10)),
        .watchlistRemoved(WatchlistRemoved(userId: 1, movieId: 10)),
        .watchProgressed(WatchProgressed(userId: 1, movieId: 10, eventType: .paused, progressPercent: 40)),
        .friendRequested(FriendRequested(fromUserId: 1, toUserId: 2)),
        .friendRequestAnswered(FriendRequestAnswered(fromUserId: 1, toUserId: 2, answer: .accepted)),
        .friendRequestCancelled(FriendRequestCancelled(fromUserId: 1, toUserId: 2)),
        .friendRemoved(FriendRemoved(userId: 1, friendId: 2)),
        .userBlocked(UserBlocked(userId: 1, blockedUserId: 2)),
        .userUnblocked(UserUnblocked(userId: 1, blockedUserId: 2)),
        .movieRecommended(MovieRecommended(fromUserId: 1, movieId: 10, toUserIds: [2, 3])),
        .profileUpdated(ProfileUpdated(userId: 1, name: "Sam", bio: nil, avatarUrl: "https://x/y.png", favoriteGenres: ["Drama"])),
        .termsAccepted(TermsAccepted(userId: 1, termsVersion: "2024-01")),
        .userErased(UserErased(userId: 1, initiator: .user)),
        .sessionStarted(SessionStarted(userId: 1, sessionId: UUID(), refreshTokenId: UUID())),
        .sessionRefreshed(SessionRefreshed(userId: 1, sessionId: UUID(), replacedTokenId: UUID(), refreshTokenId: UUID())),
        .sessionsEnded(SessionsEnded(userId: 1, sessionId: nil, reason: .refreshTokenReused)),
    ]

    /// Which case `event` is. No default: a new NuvieEvent case stops this file compiling until it
    /// is named here, and `everyCaseHasOneSample` then fails until `everyCase` holds a sample of it.
    static func caseName(_ event: NuvieEvent) -> String {
        switch event {
        case .movieAdded: "movieAdded"
        case .movieTagged: "movieTagged"
        case .identityClaimed: "identityClaimed"
        case .userRegistered: "userRegistered"
        case .movieRated: "movieRated"
        case .reviewLiked: "reviewLiked"
        case .reviewUnliked: "reviewUnliked"
        case .watchlistAdded: "watchlistAdded"
        case .watchlistRemoved: "watchlistRemoved"
        case .watchProgressed: "watchProgressed"
        case .friendRequested: "friendRequested"
        case .friendRequestAnswered: "friendRequestAnswered"
        case .friendRequestCancelled: "friendRequestCancelled"
        case .friendRemoved: "friendRemoved"
        case .userBlocked: "userBlocked"
        case .userUnblocked: "userUnblocked"
        case .movieRecommended: "movieRecommended"
        case .profileUpdated: "profileUpdated"
        case .termsAccepted: "termsAccepted"
        case .userErased: "userErased"
        case .sessionStarted: "sessionStarted"
        case .sessionRefreshed: "sessionRefreshed"
        case .sessionsEnded: "sessionsEnded"
        }
    }

    @Test func everyCaseIsSampledAndReadsBackFromItsLogForm() throws {
        let keys = try testKeyStore(in: try TemporaryDirectory())
        #expect(try CatalogCheck.problems(NuvieCatalog.self, samples: Self.everyCase, caseName: Self.caseName, cipher: keys) == [])
        #expect(throws: PayloadCatalogFailure.unknownType("movie-rated", schemaVersion: 9)) {
            try NuvieCatalog.decode(type: "movie-rated", schemaVersion: 9, payload: Data("{}".utf8), with: keys.decoder(owner: nil))
        }
    }

    @Test func personalFieldsAreSealedInTheWireFormAndReadAsAbsentOnceTheirOwnerIsErased() throws {
        let directory = try TemporaryDirectory()
        let keys = try testKeyStore(in: directory)
        let events: [NuvieEvent] = [
            .identityClaimed(IdentityClaimed(identity: Identity(provider: .apple, subject: "001234.apple-subject"), userId: 7)),
            .userRegistered(UserRegistered(userId: 7, name: "Ada Lovelace", email: "ada@example.com", avatarUrl: "https://x/ada.png", provider: .apple)),
            .profileUpdated(ProfileUpdated(userId: 7, name: "Ada L.", bio: "Analytical engines", avatarUrl: nil, favoriteGenres: ["Drama"])),
            .movieRated(MovieRated(userId: 7, movieId: 2, rating: 5, previousRating: nil, comment: "A secret opinion", isReview: true)),
        ]
        let encoded = try events.map { try NuvieCatalog.encode($0, with: keys.encoder(owner: 7)) }
        let wire = encoded.map { String(decoding: $0.payload, as: UTF8.self) }.joined()
        for secret in ["001234.apple-subject", "Ada", "ada@example.com", "ada.png", "Analytical", "secret opinion"] {
            #expect(!wire.contains(secret), "\(secret) in clear")
        }
        #expect(wire.contains("Drama") && wire.contains(#""rating":5"#), "what is not personal stays readable")
        try keys.keys.destroy(7)
        let erased = try encoded.map { try NuvieCatalog.decode(type: $0.type, schemaVersion: $0.schemaVersion, payload: $0.payload, with: keys.decoder(owner: 7)) }
        guard case .userRegistered(let user) = erased[1], case .movieRated(let rated) = erased[3], case .identityClaimed(let claim) = erased[0] else {
            Issue.record("not the events encoded")
            return
        }
        #expect(user.name == nil && user.email == nil && user.avatarUrl == nil && rated.comment == nil && claim.subject == nil)
        #expect(user.userId == 7 && rated.rating == 5 && claim.userId == 7)
    }

    @Test func theActingAndConcernedUsersAreThePayloads() {
        #expect(NuvieEvent.friendRequestAnswered(FriendRequestAnswered(fromUserId: 1, toUserId: 2, answer: .accepted)).actorUserId == 2)
        #expect(NuvieEvent.friendRequestAnswered(FriendRequestAnswered(fromUserId: 1, toUserId: 2, answer: .accepted)).subjectUserIds == [1])
        #expect(NuvieEvent.movieRecommended(MovieRecommended(fromUserId: 1, movieId: 10, toUserIds: [2, 3])).subjectUserIds == [2, 3])
        #expect(NuvieEvent.movieAdded(MovieAdded(movieId: 1, title: "Heat", genres: [], year: nil, tmdbId: nil, imdbId: nil)).actorUserId == nil)
    }

    @Test func aSchemaOneRatingIsUpcastWithTheStarsItWasShownAs() throws {
        let v1 = Data(#"{"userId":1,"movieId":2,"rating":3.5,"previousRating":null,"comment":null,"isReview":false}"#.utf8)
        let directory = try TemporaryDirectory()
        let keys = try testKeyStore(in: directory)
        guard case .movieRated(let rated) = try NuvieCatalog.decode(type: "movie-rated", schemaVersion: 1, payload: v1, with: keys.decoder(owner: 1)) else {
            Issue.record("not a rating")
            return
        }
        #expect(rated.stars == 4 && rated.rating == 3.5)
        let current = try NuvieCatalog.encode(.movieRated(rated), with: keys.encoder(owner: 1))
        #expect(current.schemaVersion == 2)
        #expect(String(decoding: current.payload, as: UTF8.self).contains(#""stars":4"#))
        #expect(throws: (any Error).self) { try NuvieCatalog.decode(type: "movie-rated", schemaVersion: 2, payload: v1, with: keys.decoder(owner: 1)) }
    }
}
