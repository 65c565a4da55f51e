import EventLog

/// Signing in by an identity (an Apple subject, a dev name…): the user who claimed it, or a new user
/// registered the first time. The identity's stream takes one claim at its version, so two first
/// sign-ins at once register one user; the new user's stream takes one registration, so two
/// registrations never share an id. A claim by a user since erased no longer counts: whoever signs
/// in with that identity again is a new user, with a new id and nothing of the old account.
public struct UserRegistration<Catalog: EventCatalog>: Sendable {
    public struct SignIn: Sendable, Equatable {
        public var userId: Int64
        public var isNewUser: Bool
        public var position: UInt64
    }

    private let store: EventStore<Catalog>
    private let userIds: StreamNumbers
    private let userStreamPrefix: String
    private let claimedUser: @Sendable (Catalog.Event) -> Int64?
    private static var maximumAttempts: Int { 5 }

    /// `claimedUser` reads the user id from a product's identity-claim event (nil for any other).
    public init(store: EventStore<Catalog>, userStreamPrefix: String, claimedUser: @escaping @Sendable (Catalog.Event) -> Int64?) {
        self.store = store
        let personalData = store.personalData
        userIds = StreamNumbers(log: store.log, streamPrefix: userStreamPrefix) { try personalData.highestKnownUser() }
        self.userStreamPrefix = userStreamPrefix
        self.claimedUser = claimedUser
    }

    /// The user who holds `identity`, if anyone does.
    public func existingUser(_ identity: SignInIdentity) throws -> SignIn? {
        try holder(of: identity.stream).user ?? holder(of: identity.legacyStream).user
    }

    /// The existing user, or a new one: `register` decides the claim and the registration for the id
    /// handed out, both appended atomically.
    public func signIn(
        _ identity: SignInIdentity, register: (_ userId: Int64) throws -> (claim: Catalog.Event, registration: Catalog.Event)
    ) async throws -> SignIn {
        for _ in 0..<Self.maximumAttempts {
            if let existing = try holder(of: identity.legacyStream).user { return existing }
            let (existing, version) = try holder(of: identity.stream)
            if let existing { return existing }
            let userId = try await userIds.next()
            let (claim, registration) = try register(userId)
            let claimed = try await store.newEvent(claim), registered = try await store.newEvent(registration)
            do {
                let result = try await store.log.append([
                    StreamAppend(streamId: identity.stream, expectedVersion: version == 0 ? .noStream : .exact(version), events: [claimed]),
                    StreamAppend(streamId: userStreamPrefix + "\(userId)", expectedVersion: .noStream, events: [registered]),
                ])
                return SignIn(userId: userId, isNewUser: true, position: result.lastPosition)
            } catch EventLogError.wrongExpectedVersion(let stream, _, _) where stream != identity.stream {
                await userIds.reset()
            } catch EventLogError.wrongExpectedVersion {
                continue
            }
        }
        throw CommandError.tooMuchContention
    }

    public func userExists(_ userId: Int64) throws -> Bool {
        try store.streamExists(userStreamPrefix + "\(userId)")
    }

    /// Registered and not erased: whose tokens still open anything.
    public func isActive(_ userId: Int64) throws -> Bool {
        try userExists(userId) && !store.personalData.isErased(userId)
    }

    /// The latest claim on the identity's stream, unless its user was erased, and the stream's version.
    private func holder(of stream: String) throws -> (user: SignIn?, version: UInt64) {
        let (events, version) = try store.readStream(stream)
        guard let last = events.last(where: { claimedUser($0.event) != nil }), let userId = claimedUser(last.event),
              try !store.personalData.isErased(userId)
        else { return (nil, version) }
        return (SignIn(userId: userId, isNewUser: false, position: last.position), version)
    }
}
