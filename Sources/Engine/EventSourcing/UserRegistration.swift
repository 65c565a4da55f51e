import EventLog
import NIOConcurrencyHelpers

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
    /// Who recently held each identity, so that a sign-in does not read and open its stream again
    /// (News signs its reader in on every write): an entry holds while its user is not erased,
    /// asked of the key store's cache each time.
    private let holders = NIOLockedValueBox(LRUCache<SignInIdentity, IdentityHolder>(capacity: 10_000))
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
        if let known = try remembered(identity) { return known }
        guard let found = try holder(of: identity.stream).user ?? holder(of: identity.legacyStream).user else { return nil }
        return remember(found, for: identity)
    }

    /// The existing user, or a new one: `register` decides the claim and the registration for the id
    /// handed out, both appended atomically.
    public func signIn(
        _ identity: SignInIdentity, register: (_ userId: Int64) throws -> (claim: Catalog.Event, registration: Catalog.Event)
    ) async throws -> SignIn {
        for _ in 0..<Self.maximumAttempts {
            if let known = try remembered(identity) { return known }
            if let existing = try holder(of: identity.legacyStream).user { return remember(existing, for: identity) }
            let (existing, version) = try holder(of: identity.stream)
            if let existing { return remember(existing, for: identity) }
            let userId = try await userIds.next()
            let (claim, registration) = try register(userId)
            let claimed = try await store.newEvent(claim), registered = try await store.newEvent(registration)
            do {
                let result = try await store.log.append([
                    StreamAppend(streamId: identity.stream, expectedVersion: version == 0 ? .noStream : .exact(version), events: [claimed]),
                    StreamAppend(streamId: userStreamPrefix + "\(userId)", expectedVersion: .noStream, events: [registered]),
                ])
                remember(SignIn(userId: userId, isNewUser: false, position: result.lastPosition), for: identity)
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

    private func remembered(_ identity: SignInIdentity) throws -> SignIn? {
        guard let known = holders.withLockedValue({ $0.value(for: identity) }), try !store.personalData.isErased(known.userId) else { return nil }
        return SignIn(userId: known.userId, isNewUser: false, position: known.position)
    }

    @discardableResult
    private func remember(_ holder: SignIn, for identity: SignInIdentity) -> SignIn {
        holders.withLockedValue { $0.set(IdentityHolder(userId: holder.userId, position: holder.position), for: identity) }
        return holder
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

/// A remembered claim: its user and where it was recorded.
private struct IdentityHolder: Sendable {
    var userId: Int64
    var position: UInt64
}
