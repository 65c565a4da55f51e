import EventLog

/// Signing in by an identity (an Apple subject, a dev name…): the user who claimed it, or a new user
/// registered the first time. The identity's stream takes one claim (`noStream`), so two first
/// sign-ins at once register one user; the new user's stream takes one registration, so two
/// registrations never share an id.
public struct UserRegistration<Catalog: EventCatalog>: Sendable {
    public struct SignIn: Sendable, Equatable {
        public var userId: Int64
        public var isNewUser: Bool
        public var position: UInt64
    }

    private let store: EventStore<Catalog>
    private let userIds: UserIdAllocator
    private let userStreamPrefix: String
    private let claimedUser: @Sendable (Catalog.Event) -> Int64?
    private static var maximumAttempts: Int { 5 }

    /// `claimedUser` reads the user id from a product's identity-claim event (nil for any other).
    public init(store: EventStore<Catalog>, userStreamPrefix: String, claimedUser: @escaping @Sendable (Catalog.Event) -> Int64?) {
        self.store = store
        userIds = UserIdAllocator(log: store.log, userStreamPrefix: userStreamPrefix)
        self.userStreamPrefix = userStreamPrefix
        self.claimedUser = claimedUser
    }

    /// The user who claimed the identity whose stream is `identityStream`, if anyone has.
    public func existingUser(identityStream: String) throws -> SignIn? {
        for recorded in try store.readStream(identityStream).events {
            if let userId = claimedUser(recorded.event) { return SignIn(userId: userId, isNewUser: false, position: recorded.position) }
        }
        return nil
    }

    /// The existing user, or a new one: `register` decides the claim and the registration for the id
    /// handed out, both appended atomically.
    public func signIn(
        identityStream: String, register: (_ userId: Int64) throws -> (claim: Catalog.Event, registration: Catalog.Event)
    ) async throws -> SignIn {
        for _ in 0..<Self.maximumAttempts {
            if let existing = try existingUser(identityStream: identityStream) { return existing }
            let userId = try await userIds.next()
            let (claim, registration) = try register(userId)
            do {
                let result = try await store.log.append([
                    StreamAppend(streamId: identityStream, expectedVersion: .noStream, events: [try Catalog.newEvent(claim)]),
                    StreamAppend(streamId: userStreamPrefix + "\(userId)", expectedVersion: .noStream, events: [try Catalog.newEvent(registration)]),
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
        try store.streamExists(userStreamPrefix + "\(userId)")
    }
}
