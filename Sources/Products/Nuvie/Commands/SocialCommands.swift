import EventSourcing
import NuvieDomain
import EventLog
import Foundation

/// Friend requests, friendships, blocks and recommendations to friends: each decided against the
/// pair's `friendship-{low}-{high}` stream.
extension NuvieCommandService {
    public func requestFriend(_ otherId: Int64, by userId: Int64, eventId: UUID = .timeOrdered()) async throws -> CommandResult {
        let exists = try userExists(otherId)
        return try await onFriendship(userId, otherId, eventId: eventId) { state throws(NuvieDomainError) in
            try FriendshipDecisions.request(from: userId, to: otherId, state: state, userExists: exists)
        }
    }

    public func answerFriendRequest(_ answer: FriendRequestAnswered.Answer, from requesterId: Int64, by userId: Int64, eventId: UUID = .timeOrdered()) async throws -> CommandResult {
        let exists = try userExists(requesterId)
        return try await onFriendship(userId, requesterId, eventId: eventId) { state throws(NuvieDomainError) in
            try FriendshipDecisions.answer(answer, by: userId, requesterId: requesterId, state: state, userExists: exists)
        }
    }

    public func cancelFriendRequest(to otherId: Int64, by userId: Int64, eventId: UUID = .timeOrdered()) async throws -> CommandResult {
        let exists = try userExists(otherId)
        return try await onFriendship(userId, otherId, eventId: eventId) { state throws(NuvieDomainError) in
            try FriendshipDecisions.cancel(by: userId, to: otherId, state: state, userExists: exists)
        }
    }

    public func unfriend(_ otherId: Int64, by userId: Int64, eventId: UUID = .timeOrdered()) async throws -> CommandResult {
        // Before the pair's stream: no one is friends with a user who does not exist, and saying so is USER_NOT_FOUND.
        guard try userExists(otherId) else { throw NuvieDomainError.userNotFound(userId: otherId) }
        return try await onFriendship(userId, otherId, eventId: eventId) { state throws(NuvieDomainError) in
            try FriendshipDecisions.unfriend(by: userId, friend: otherId, state: state)
        }
    }

    public func block(_ otherId: Int64, by userId: Int64, eventId: UUID = .timeOrdered()) async throws -> CommandResult {
        let exists = try userExists(otherId)
        return try await onFriendship(userId, otherId, eventId: eventId) { state throws(NuvieDomainError) in
            try FriendshipDecisions.block(by: userId, other: otherId, state: state, userExists: exists)
        }
    }

    public func unblock(_ otherId: Int64, by userId: Int64, eventId: UUID = .timeOrdered()) async throws -> CommandResult {
        let exists = try userExists(otherId)
        return try await onFriendship(userId, otherId, eventId: eventId) { state throws(NuvieDomainError) in
            try FriendshipDecisions.unblock(by: userId, other: otherId, state: state, userExists: exists)
        }
    }

    /// Recommends a film to friends. Recipients are checked against their friendship streams as
    /// read just before the append; a friendship ending in between still receives this one.
    public func recommend(movieId: Int64, by userId: Int64, to recipients: [Int64], eventId: UUID = .timeOrdered()) async throws -> CommandResult {
        try requireUser(userId)
        var seen = Set<Int64>()
        let unique = recipients.filter { seen.insert($0).inserted }
        let states = try unique.map { ($0, try log.state(of: NuvieStreams.friendship(userId, $0), as: FriendshipState.self).state, try userExists($0)) }
        let recommended = try FriendshipDecisions.recommend(
            movieId: movieId, by: userId, to: states, movieExists: try log.streamExists(NuvieStreams.movie(movieId))
        )
        return try await log.append([.movieRecommended(recommended)], to: NuvieStreams.recommendations(fromUserId: userId), eventId: eventId)
    }

    private func onFriendship(
        _ userId: Int64, _ otherId: Int64, eventId: UUID, decide: (FriendshipState) throws(NuvieDomainError) -> [NuvieEvent]
    ) async throws -> CommandResult {
        guard userId != otherId else { throw NuvieDomainError.invalid(field: "user_id", reason: "must be another user") }
        try requireUser(userId)
        return try await log.decideAndAppend(NuvieStreams.friendship(userId, otherId), as: FriendshipState.self, eventId: eventId) { state in
            try decide(state)
        }
    }
}

/// Profile edits and terms acceptance, decided against the user's `user-{id}` stream.
extension NuvieCommandService {
    public func updateProfile(_ userId: Int64, _ change: ProfileChange, knownGenres: [String], eventId: UUID = .timeOrdered()) async throws -> CommandResult {
        try requireUser(userId)
        return try await log.decideAndAppend(NuvieStreams.user(userId), as: UserStreamState.self, eventId: eventId) { state in
            try ProfileDecisions.update(userId: userId, change, state: state.profile, knownGenres: knownGenres)
        }
    }

    public func acceptTerms(_ userId: Int64, version: String, eventId: UUID = .timeOrdered()) async throws -> CommandResult {
        try requireUser(userId)
        return try await log.decideAndAppend(NuvieStreams.user(userId), as: UserStreamState.self, eventId: eventId) { state in
            try ProfileDecisions.acceptTerms(userId: userId, version: version, state: state.profile)
        }
    }
}
