import Domain
import EventLog
import Foundation
import Logging

/// Runs commands: load the stream the decision depends on, fold it, decide, append with the version
/// it was decided against, and retry from the start when another writer got there first.
public struct CommandService: Sendable {
    public let log: DomainLog
    private let userIds: UserIdAllocator
    private static let maximumAttempts = 5

    public init(log: EventLog) {
        self.log = DomainLog(log: log)
        self.userIds = UserIdAllocator(log: log)
    }

    // MARK: Identity

    public struct SignIn: Sendable, Equatable {
        public var userId: Int64
        public var isNewUser: Bool
        public var position: UInt64
    }

    /// The user behind `identity`, registering a new one the first time it signs in.
    public func signIn(_ identity: Identity, name: String?, email: String?) async throws -> SignIn {
        for _ in 0..<Self.maximumAttempts {
            let identityStream = StreamName.identity(identity)
            if let existing = try existingUser(identity) { return existing }
            let userId = try await userIds.next()
            let (claimed, registered) = try Registration.decide(identity: identity, userId: userId, name: name, email: email)
            do {
                let result = try await log.log.append([
                    StreamAppend(streamId: identityStream, expectedVersion: .noStream, events: [try DomainLog.newEvent(.identityClaimed(claimed))]),
                    StreamAppend(streamId: StreamName.user(userId), expectedVersion: .noStream, events: [try DomainLog.newEvent(.userRegistered(registered))]),
                ])
                return SignIn(userId: userId, isNewUser: true, position: result.lastPosition)
            } catch EventLogError.wrongExpectedVersion(let stream, _, _) where stream != identityStream {
                await userIds.reset()
            } catch EventLogError.wrongExpectedVersion {
                continue
            }
        }
        throw CommandError.tooMuchContention
    }

    public func userExists(_ userId: Int64) throws -> Bool {
        try log.streamExists(StreamName.user(userId))
    }

    /// Every command re-checks the user it acts for: a signed token is no proof that its user exists.
    func requireUser(_ userId: Int64) throws {
        guard try userExists(userId) else { throw DomainError.userNotFound(userId: userId) }
    }

    /// The user who claimed `identity`, if anyone has.
    public func existingUser(_ identity: Identity) throws -> SignIn? {
        for recorded in try log.readStream(StreamName.identity(identity)).events {
            if case .identityClaimed(let claim) = recorded.event {
                return SignIn(userId: claim.userId, isNewUser: false, position: recorded.position)
            }
        }
        return nil
    }

    // MARK: Ratings and reviews

    public func rate(_ command: RateMovie, eventId: UUID = .timeOrdered()) async throws -> (MovieRated, CommandResult) {
        try requireUser(command.userId)
        var rated: MovieRated?
        let result = try await decideAndAppend(StreamName.rating(userId: command.userId, movieId: command.movieId), eventId: eventId) { events in
            let decided = try command.decide(state: RatingState.fold(events), movieExists: try log.streamExists(StreamName.movie(command.movieId)))
            rated = decided
            return [.movieRated(decided)]
        }
        guard let rated else { throw CommandError.tooMuchContention }
        return (rated, result)
    }

    /// A review between users where either blocked the other is not there for the liker, as the
    /// review lists do not show it.
    public func likeReview(_ reviewId: Int64, by userId: Int64, eventId: UUID = .timeOrdered()) async throws -> CommandResult {
        try requireUser(userId)
        let review = try findReview(reviewId)
        if review.authorId != userId {
            let between = FriendshipState.fold(try log.readStream(StreamName.friendship(userId, review.authorId)).events.map(\.event))
            guard !between.isBlocked else { throw DomainError.reviewNotFound(reviewId: reviewId) }
        }
        return try await changeLike(review, by: userId, eventId: eventId, decide: ReviewLikeDecision.like)
    }

    /// Taking a like back is always allowed, a block in between included.
    public func unlikeReview(_ reviewId: Int64, by userId: Int64, eventId: UUID = .timeOrdered()) async throws -> CommandResult {
        try requireUser(userId)
        return try await changeLike(try findReview(reviewId), by: userId, eventId: eventId, decide: ReviewLikeDecision.unlike)
    }

    private func changeLike(
        _ review: ReviewRef, by userId: Int64, eventId: UUID,
        decide: @Sendable (ReviewRef, Int64, ReviewLikeState) -> [DomainEvent]
    ) async throws -> CommandResult {
        return try await decideAndAppend(StreamName.reviewLike(reviewId: review.reviewId, userId: userId), eventId: eventId) { events in
            decide(review, userId, ReviewLikeState.fold(events.map(\.event)))
        }
    }

    /// A review id is the position of the first rating that made it a review; check that it is one.
    private func findReview(_ reviewId: Int64) throws -> ReviewRef {
        guard reviewId > 0, let recorded = try log.event(at: UInt64(reviewId)),
              case .movieRated(let rated) = recorded.event, rated.isReview,
              RatingState.fold(try log.readStream(recorded.streamId).events).reviewId == reviewId
        else { throw DomainError.reviewNotFound(reviewId: reviewId) }
        return ReviewRef(reviewId: reviewId, authorId: rated.userId, movieId: rated.movieId)
    }

    // MARK: Watchlist and watching

    public func changeWatchlist(_ action: WatchlistAction, userId: Int64, movieId: Int64, eventId: UUID = .timeOrdered()) async throws -> CommandResult {
        try requireUser(userId)
        return try await decideAndAppend(StreamName.watchlist(userId: userId, movieId: movieId), eventId: eventId) { events in
            try WatchDecisions.watchlist(
                action, userId: userId, movieId: movieId, state: WatchlistState.fold(events.map(\.event)),
                movieExists: try log.streamExists(StreamName.movie(movieId))
            )
        }
    }

    public func recordWatch(_ type: WatchEventType, progressPercent: Int, userId: Int64, movieId: Int64, eventId: UUID = .timeOrdered()) async throws -> CommandResult {
        try requireUser(userId)
        let progressed = try WatchDecisions.watch(
            type, progressPercent: progressPercent, userId: userId, movieId: movieId,
            movieExists: try log.streamExists(StreamName.movie(movieId))
        )
        let result = try await log.log.append(
            to: StreamName.watch(userId: userId, movieId: movieId), expectedVersion: .any,
            events: [try DomainLog.newEvent(.watchProgressed(progressed), id: eventId)]
        )
        return try commandResult(result.lastPosition)
    }

    // MARK: Helpers

    /// Loads `stream`, decides from its events, and appends what was decided with the version it was
    /// decided against, retrying from the load when another writer got there first. A decision to
    /// record nothing answers with the current head, so read-your-writes has nothing to wait for.
    ///
    /// When `eventId` is already recorded (a request retried under its `Idempotency-Key`), the
    /// decision is made again against the stream as it stood before that event: the same request
    /// decides the same events, which the log recognises; a different one is refused by the log
    /// (`eventIdReused`), or here when it would record nothing.
    func decideAndAppend(
        _ stream: String, eventId: UUID, decide: ([Recorded<DomainEvent>]) throws -> [DomainEvent]
    ) async throws -> CommandResult {
        try await withRetry {
            let original = try log.log.position(ofEvent: eventId)
            let (events, version) = try log.readStream(stream)
            let decided = try decide(original.map { original in events.filter { $0.position < original } } ?? events)
            if let original, decided.isEmpty { throw EventLogError.eventIdReused(eventId: eventId, position: original) }
            guard !decided.isEmpty else { return try commandResult(log.log.headPosition) }
            let result = try await log.log.append(
                to: stream, expectedVersion: version == 0 ? .noStream : .exact(version),
                events: try decided.enumerated().map { try DomainLog.newEvent($1, id: EventIds.nth($0, of: eventId)) }
            )
            return try commandResult(result.lastPosition)
        }
    }

    func commandResult(_ position: UInt64) throws -> CommandResult {
        let recordedAt = try log.log.event(at: position)?.recordedAt ?? Date()
        return CommandResult(position: position, recordedAt: recordedAt)
    }

    private func withRetry<T>(_ attempt: () async throws -> T) async throws -> T {
        for _ in 1..<Self.maximumAttempts {
            do {
                return try await attempt()
            } catch EventLogError.wrongExpectedVersion {
                continue
            }
        }
        return try await attempt()
    }
}

public enum CommandError: Error, Equatable, Sendable {
    /// The same streams kept changing under the command; the caller may retry.
    case tooMuchContention
}
