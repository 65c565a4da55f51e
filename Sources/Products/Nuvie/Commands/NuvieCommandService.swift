import EventSourcing
import NuvieDomain
import EventLog
import Foundation
import Logging

/// Runs commands: load the stream the decision depends on, fold it, decide, append with the version
/// it was decided against, and retry from the start when another writer got there first.
public struct NuvieCommandService: Sendable {
    public let log: NuvieStore
    private let registration: UserRegistration<NuvieCatalog>

    public init(store: NuvieStore) {
        self.log = store
        registration = UserRegistration(store: self.log, userStreamPrefix: NuvieStreams.userPrefix) { event in
            if case .identityClaimed(let claim) = event { claim.userId } else { nil }
        }
    }

    // MARK: Identity

    public typealias SignIn = UserRegistration<NuvieCatalog>.SignIn

    /// The user behind `identity`, registering a new one the first time it signs in.
    public func signIn(_ identity: Identity, name: String?, email: String?) async throws -> SignIn {
        try await registration.signIn(identity.signIn) { userId in
            let (claimed, registered) = try Registration.decide(identity: identity, userId: userId, name: name, email: email)
            return (.identityClaimed(claimed), .userRegistered(registered))
        }
    }

    /// Registered and not erased.
    public func userExists(_ userId: Int64) throws -> Bool {
        try registration.isActive(userId)
    }

    /// Every command re-checks the user it acts for: a signed token is no proof that its user exists,
    /// or was not erased since.
    func requireUser(_ userId: Int64) throws {
        guard try userExists(userId) else { throw NuvieDomainError.userNotFound(userId: userId) }
    }

    /// The user who claimed `identity`, if anyone has.
    public func existingUser(_ identity: Identity) throws -> SignIn? {
        try registration.existingUser(identity.signIn)
    }

    // MARK: Ratings and reviews

    public func rate(_ command: RateMovie, eventId: UUID = .timeOrdered()) async throws -> (MovieRated, CommandResult) {
        try requireUser(command.userId)
        var rated: MovieRated?
        let result = try await log.decideAndAppend(NuvieStreams.rating(userId: command.userId, movieId: command.movieId), as: RatingState.self, eventId: eventId) { state in
            let decided = try command.decide(state: state, movieExists: try log.streamExists(NuvieStreams.movie(command.movieId)))
            rated = decided
            return [.movieRated(decided)]
        }
        guard let rated else { throw CommandError.tooMuchContention }
        return (rated, result)
    }

    public func likeReview(_ reviewId: Int64, by userId: Int64, eventId: UUID = .timeOrdered()) async throws -> CommandResult {
        try requireUser(userId)
        let review = try findReview(reviewId)
        // A block between the liker and the author matters only when they are two people.
        let between = review.authorId == userId
            ? FriendshipState() : try log.state(of: NuvieStreams.friendship(userId, review.authorId), as: FriendshipState.self).state
        return try await changeLike(review, by: userId, eventId: eventId) { review, userId, state in
            try ReviewLikeDecision.like(review, by: userId, state: state, between: between)
        }
    }

    public func unlikeReview(_ reviewId: Int64, by userId: Int64, eventId: UUID = .timeOrdered()) async throws -> CommandResult {
        try requireUser(userId)
        return try await changeLike(try findReview(reviewId), by: userId, eventId: eventId, decide: ReviewLikeDecision.unlike)
    }

    private func changeLike(
        _ review: ReviewRef, by userId: Int64, eventId: UUID,
        decide: @escaping @Sendable (ReviewRef, Int64, ReviewLikeState) throws -> [NuvieEvent]
    ) async throws -> CommandResult {
        return try await log.decideAndAppend(NuvieStreams.reviewLike(reviewId: review.reviewId, userId: userId), as: ReviewLikeState.self, eventId: eventId) { state in
            try decide(review, userId, state)
        }
    }

    /// A review id is the position of the first rating that made it a review; check that it is one,
    /// and that its author has not deleted their account since (their reviews went with it).
    private func findReview(_ reviewId: Int64) throws -> ReviewRef {
        guard reviewId > 0, let recorded = try log.event(at: UInt64(reviewId)),
              case .movieRated(let rated) = recorded.event, rated.isReview,
              try log.state(of: recorded.streamId, as: RatingState.self).state.reviewId == reviewId,
              try userExists(rated.userId)
        else { throw NuvieDomainError.reviewNotFound(reviewId: reviewId) }
        return ReviewRef(reviewId: reviewId, authorId: rated.userId, movieId: rated.movieId)
    }

    // MARK: Watchlist and watching

    public func changeWatchlist(_ action: WatchlistAction, userId: Int64, movieId: Int64, eventId: UUID = .timeOrdered()) async throws -> CommandResult {
        try requireUser(userId)
        return try await log.decideAndAppend(NuvieStreams.watchlist(userId: userId, movieId: movieId), as: WatchlistState.self, eventId: eventId) { state in
            try WatchDecisions.watchlist(
                action, userId: userId, movieId: movieId, state: state,
                movieExists: try log.streamExists(NuvieStreams.movie(movieId))
            )
        }
    }

    public func recordWatch(_ type: WatchEventType, progressPercent: Int, userId: Int64, movieId: Int64, eventId: UUID = .timeOrdered()) async throws -> CommandResult {
        try requireUser(userId)
        let progressed = try WatchDecisions.watch(
            type, progressPercent: progressPercent, userId: userId, movieId: movieId,
            movieExists: try log.streamExists(NuvieStreams.movie(movieId))
        )
        return try await log.append([.watchProgressed(progressed)], to: NuvieStreams.watch(userId: userId, movieId: movieId), eventId: eventId)
    }

    // MARK: Helpers

    func commandResult(_ position: UInt64) throws -> CommandResult {
        try log.commandResult(position)
    }
}
