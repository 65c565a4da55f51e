import NuvieDomain
import Testing

/// Given the events of a pair's friendship stream, when a social command runs, then these events or this refusal.
@Suite struct FriendshipDecisionTests {
    let requested: [NuvieEvent] = [.friendRequested(FriendRequested(fromUserId: 1, toUserId: 2))]
    var friends: [NuvieEvent] { requested + [.friendRequestAnswered(FriendRequestAnswered(fromUserId: 1, toUserId: 2, answer: .accepted))] }

    @Test func givenNothingWhenRequestedThenARequest() throws {
        #expect(try FriendshipDecisions.request(from: 1, to: 2, state: FriendshipState(), userExists: true) == requested)
    }

    @Test func givenAPendingRequestEitherWayWhenRequestedAgainThenItExists() {
        let state = FriendshipState.fold(requested)
        #expect(throws: NuvieDomainError.friendRequestExists(fromUserId: 1, toUserId: 2)) {
            try FriendshipDecisions.request(from: 1, to: 2, state: state, userExists: true)
        }
        #expect(throws: NuvieDomainError.friendRequestExists(fromUserId: 1, toUserId: 2)) {
            try FriendshipDecisions.request(from: 2, to: 1, state: state, userExists: true)
        }
    }

    @Test func onlyTheRecipientAnswersAndOnlyTheSenderCancels() throws {
        let state = FriendshipState.fold(requested)
        #expect(throws: NuvieDomainError.friendRequestNotFound(fromUserId: 2, toUserId: 1)) {
            try FriendshipDecisions.answer(.accepted, by: 1, requesterId: 2, state: state, userExists: true)
        }
        #expect(throws: NuvieDomainError.friendRequestNotFound(fromUserId: 2, toUserId: 1)) {
            try FriendshipDecisions.cancel(by: 2, to: 1, state: state, userExists: true)
        }
        #expect(try FriendshipDecisions.answer(.declined, by: 2, requesterId: 1, state: state, userExists: true).count == 1)
        #expect(try FriendshipDecisions.cancel(by: 1, to: 2, state: state, userExists: true).count == 1)
    }

    /// An erased user's requests, friendships and blocks left every list: none of them is answered,
    /// cancelled, recommended to or lifted.
    @Test func givenTheOtherUserErasedTheirRequestsAndFriendshipAreGone() {
        let pending = FriendshipState.fold(requested)
        #expect(throws: NuvieDomainError.friendRequestNotFound(fromUserId: 1, toUserId: 2)) {
            try FriendshipDecisions.answer(.accepted, by: 2, requesterId: 1, state: pending, userExists: false)
        }
        #expect(throws: NuvieDomainError.friendRequestNotFound(fromUserId: 1, toUserId: 2)) {
            try FriendshipDecisions.cancel(by: 1, to: 2, state: pending, userExists: false)
        }
        #expect(throws: NuvieDomainError.userNotFound(userId: 2)) {
            try FriendshipDecisions.recommend(movieId: 5, by: 1, to: [(2, FriendshipState.fold(friends), false)], movieExists: true)
        }
        #expect(throws: NuvieDomainError.userNotFound(userId: 9)) {
            try FriendshipDecisions.unblock(by: 1, other: 9, state: FriendshipState(), userExists: false)
        }
    }

    @Test func givenFriendsWhenRequestedThenAlreadyFriendsAndUnfriendingEndsIt() throws {
        let state = FriendshipState.fold(friends)
        #expect(state.status == .friends)
        #expect(throws: NuvieDomainError.alreadyFriends(userId: 2)) { try FriendshipDecisions.request(from: 1, to: 2, state: state, userExists: true) }
        let ended = try FriendshipDecisions.unfriend(by: 2, friend: 1, state: state)
        #expect(FriendshipState.fold(friends + ended).status == .none)
        #expect(throws: NuvieDomainError.notFriends(userId: 1)) { try FriendshipDecisions.unfriend(by: 2, friend: 1, state: FriendshipState.fold(friends + ended)) }
    }

    /// The blocked user is told the blocker is not found, as their profile says, not that they are blocked.
    @Test func aBlockEndsTheFriendshipAndStopsRequestsBothWaysUntilLifted() throws {
        let blocked = friends + (try FriendshipDecisions.block(by: 2, other: 1, state: FriendshipState.fold(friends), userExists: true))
        let state = FriendshipState.fold(blocked)
        #expect(state.status == .none && state.isBlocked)
        #expect(throws: NuvieDomainError.userNotFound(userId: 2)) { try FriendshipDecisions.request(from: 1, to: 2, state: state, userExists: true) }
        #expect(throws: NuvieDomainError.blocked(userId: 1)) { try FriendshipDecisions.request(from: 2, to: 1, state: state, userExists: true) }
        #expect(try FriendshipDecisions.block(by: 2, other: 1, state: state, userExists: true).isEmpty)
        #expect(try FriendshipDecisions.unblock(by: 1, other: 2, state: state, userExists: true).isEmpty)
        let lifted = FriendshipState.fold(blocked + (try FriendshipDecisions.unblock(by: 2, other: 1, state: state, userExists: true)))
        #expect(try FriendshipDecisions.request(from: 1, to: 2, state: lifted, userExists: true).count == 1)
    }

    @Test func requestsToYourselfOrToNobodyAreRefused() {
        #expect(throws: NuvieDomainError.invalid(field: "user_id", reason: "must be another user")) {
            try FriendshipDecisions.request(from: 1, to: 1, state: FriendshipState(), userExists: true)
        }
        #expect(throws: NuvieDomainError.userNotFound(userId: 9)) {
            try FriendshipDecisions.request(from: 1, to: 9, state: FriendshipState(), userExists: false)
        }
    }

    @Test func aFilmIsRecommendedOnlyToFriends() throws {
        let friend = FriendshipState.fold(friends)
        #expect(try FriendshipDecisions.recommend(movieId: 5, by: 1, to: [(2, friend, true)], movieExists: true).toUserIds == [2])
        #expect(throws: NuvieDomainError.notFriends(userId: 3)) {
            try FriendshipDecisions.recommend(movieId: 5, by: 1, to: [(2, friend, true), (3, FriendshipState(), true)], movieExists: true)
        }
        #expect(throws: NuvieDomainError.movieNotFound(movieId: 5)) {
            try FriendshipDecisions.recommend(movieId: 5, by: 1, to: [(2, friend, true)], movieExists: false)
        }
    }
}

@Suite struct ProfileDecisionTests {
    let registered: [NuvieEvent] = [.userRegistered(UserRegistered(userId: 1, name: "Sam", email: nil, avatarUrl: nil, provider: .dev))]
    let genres = ["Comedy", "Drama", "Sci-Fi"]

    @Test func aChangeRecordsTheWholeProfileWithCatalogGenreSpelling() throws {
        let events = try ProfileDecisions.update(
            userId: 1, ProfileChange(bio: .set("Films!"), favoriteGenres: .set(["sci-fi", "COMEDY", "Sci-Fi"])),
            state: UserStreamState.fold(registered).profile, knownGenres: genres
        )
        #expect(events == [.profileUpdated(ProfileUpdated(userId: 1, name: "Sam", bio: "Films!", avatarUrl: nil, favoriteGenres: ["Sci-Fi", "Comedy"]))])
        let state = UserStreamState.fold(registered + events).profile
        #expect(try ProfileDecisions.update(userId: 1, ProfileChange(bio: .set("Films!")), state: state, knownGenres: genres).isEmpty)
        let cleared = try ProfileDecisions.update(userId: 1, ProfileChange(bio: .clear, favoriteGenres: .clear), state: state, knownGenres: genres)
        #expect(UserStreamState.fold(registered + events + cleared).profile == UserStreamState.fold(registered).profile)
    }

    @Test(arguments: [
        ProfileChange(name: "  "), ProfileChange(name: String(repeating: "x", count: 101)),
        ProfileChange(avatarUrl: .set("ftp://x")), ProfileChange(favoriteGenres: .set(["Polka"])),
        ProfileChange(bio: .set(String(repeating: "b", count: 501))),
    ])
    func invalidChangesAreRefused(_ change: ProfileChange) {
        #expect(throws: NuvieDomainError.self) {
            try ProfileDecisions.update(userId: 1, change, state: UserStreamState.fold(registered).profile, knownGenres: genres)
        }
    }

    @Test func termsAreRecordedOncePerVersion() throws {
        let accepted = try ProfileDecisions.acceptTerms(userId: 1, version: "2024-01", state: UserStreamState.fold(registered).profile)
        #expect(accepted == [.termsAccepted(TermsAccepted(userId: 1, termsVersion: "2024-01"))])
        #expect(try ProfileDecisions.acceptTerms(userId: 1, version: "2024-01", state: UserStreamState.fold(registered + accepted).profile).isEmpty)
        #expect(throws: NuvieDomainError.userNotFound(userId: 1)) { try ProfileDecisions.acceptTerms(userId: 1, version: "v", state: nil) }
    }
}
