import ChatDomain
import Crypto
import EventLog
import EventSourcing
import Foundation
import ReadModels

/// Runs the chat product's commands against its log: accounts and their tokens, sessions and their
/// messages. Every decision is checked against the stream it depends on and appended at the version
/// it was decided against.
public struct ChatCommandService: Sendable {
    public let store: ChatStore
    public let passwords: DjangoPassword
    private let hashing: PasswordHashing
    private let registration: UserRegistration<ChatCatalog>
    private let sessionNumbers: StreamNumbers
    /// A password hash no account has, checked when the email is unknown, so a login takes as long
    /// whether or not the address has an account.
    private let decoyHash: String

    public init(store: ChatStore, passwords: DjangoPassword = DjangoPassword(), hashing: PasswordHashing = PasswordHashing()) throws {
        self.store = store
        self.passwords = passwords
        self.hashing = hashing
        registration = UserRegistration(store: store, userStreamPrefix: ChatStreams.userPrefix) { event in
            if case .identityClaimed(let claim) = event { claim.userId } else { nil }
        }
        sessionNumbers = StreamNumbers(log: store.log, streamPrefix: ChatStreams.sessionPrefix)
        decoyHash = try DjangoPassword.encode(UUID().uuidString, salt: "decoy", iterations: passwords.iterations)
    }

    // MARK: Accounts

    /// A new account. Throws `emailTaken` when the address (in any case) has one.
    public func signUp(email rawEmail: String, password: String, username: String?, firstName: String?, lastName: String?) async throws -> Int64 {
        let email = try AccountRules.email(rawEmail)
        guard try existingAccount(uncomposedEmail: rawEmail) == nil else { throw ChatDomainError.emailTaken }
        try AccountRules.password(password)
        let profile = try AccountRules.profile(username: username, firstName: firstName, lastName: lastName, email: email)
        let passwords = passwords
        let hash = try await hashing.run(.newHash) { try passwords.hash(password) }
        return try await register(email: email, profile: profile, passwordHash: hash, importedDateJoined: nil)
    }

    /// An account exported from the Django app, with its password hash as Django stored it; nil when
    /// the address already has an account here.
    public func importAccount(email rawEmail: String, passwordHash: String, username: String?, firstName: String?, lastName: String?, dateJoined: Date?) async throws -> Int64? {
        let email = try AccountRules.email(rawEmail)
        guard try existingAccount(uncomposedEmail: rawEmail) == nil else { return nil }
        guard DjangoPassword.isSupported(passwordHash) else {
            throw ChatDomainError.invalid(field: "password", reason: "is not a pbkdf2_sha256 hash (the Django default); the user must reset it")
        }
        let profile = try AccountRules.profile(username: username, firstName: firstName, lastName: lastName, email: email)
        do {
            return try await register(email: email, profile: profile, passwordHash: passwordHash, importedDateJoined: dateJoined.map(ChatTime.microseconds))
        } catch ChatDomainError.emailTaken {
            return nil
        }
    }

    private func register(email: String, profile: ChatProfile, passwordHash: String, importedDateJoined: Int64?) async throws -> Int64 {
        let signIn = try await registration.signIn(Self.identity(email)) { userId in
            (.identityClaimed(EmailClaimed(email: email, userId: userId)),
             .userRegistered(UserRegistered(userId: userId, email: email, profile: profile, passwordHash: passwordHash, importedDateJoined: importedDateJoined)))
        }
        guard signIn.isNewUser else { throw ChatDomainError.emailTaken }
        return signIn.userId
    }

    /// The account whose email and password these are; nil for an unknown address or a wrong
    /// password, in about the same time either way.
    public func authenticate(email rawEmail: String, password: String) async throws -> AccountState.Registered? {
        guard let email = try? AccountRules.email(rawEmail), password.utf8.count <= 4096 else { return nil }
        let account = try (registration.existingUser(Self.identity(email)) ?? existingAccount(uncomposedEmail: rawEmail)).flatMap { try self.account($0.userId) }
        let hash = account?.passwordHash ?? decoyHash
        let matches = try await hashing.run(.check) { DjangoPassword.verify(password, against: hash) }
        guard matches, let account else { return nil }
        await strengthen(account, password: password)
        return account
    }

    /// Replaces a hash made with fewer iterations than new ones get (an account imported from an
    /// older Django) by a new hash of the password that just matched it, as Django does at login:
    /// until then the account has the weaker hash, and its logins take less time than others'. A
    /// rehash that fails (a concurrent change, the log refusing writes) is left to the next login.
    private func strengthen(_ account: AccountState.Registered, password: String) async {
        guard let iterations = DjangoPassword.iterations(of: account.passwordHash), iterations < passwords.iterations else { return }
        let passwords = passwords
        guard let stronger = try? await hashing.run(.newHash, { try passwords.hash(password) }) else { return }
        _ = try? await store.decideAndAppend(ChatStreams.user(account.userId), as: AccountState.self, eventId: .timeOrdered()) { state in
            guard state.registered?.passwordHash == account.passwordHash else { return [] }
            return [.passwordRehashed(PasswordRehashed(userId: account.userId, passwordHash: stronger))]
        }
    }

    /// An account recorded under this address before addresses were composed (NFKC).
    private func existingAccount(uncomposedEmail rawEmail: String) throws -> UserRegistration<ChatCatalog>.SignIn? {
        for recorded in AccountRules.uncomposedEmails(rawEmail) {
            if let user = try registration.existingUser(Self.identity(recorded)) { return user }
        }
        return nil
    }

    public func account(_ userId: Int64) throws -> AccountState.Registered? {
        try store.state(of: ChatStreams.user(userId), as: AccountState.self).state.registered
    }

    /// Registered and not erased.
    public func isActive(_ userId: Int64) throws -> Bool {
        try registration.isActive(userId)
    }

    /// A new API token for `userId`: 40 hex digits, as Django REST framework's are. Only its hash
    /// is recorded. A user holds at most `liveTokensKept`: the oldest beyond are revoked in the same
    /// append (every login issues one, and nothing else ends a token but a logout).
    public func issueToken(for userId: Int64) async throws -> (token: String, result: CommandResult) {
        guard try isActive(userId) else { throw ChatDomainError.userNotFound(userId: userId) }
        var generator = SystemRandomNumberGenerator()
        let token = (0..<20).map { _ in UInt8.random(in: 0...255, using: &generator) }.lowercaseHex
        let result = try await store.decideAndAppend(ChatStreams.user(userId), as: AccountState.self, eventId: .timeOrdered()) { state in
            guard let registered = state.registered else { throw ChatDomainError.userNotFound(userId: userId) }
            let revoked = registered.liveTokens.prefix(max(0, registered.liveTokens.count + 1 - Self.liveTokensKept))
            return revoked.map { .tokenRevoked(TokenRevoked(userId: userId, tokenHash: $0)) }
                + [.tokenIssued(TokenIssued(userId: userId, tokenHash: Self.tokenHash(token)))]
        }
        return (token, result)
    }

    public static let liveTokensKept = 20

    public func revokeToken(hash: String, of userId: Int64) async throws -> CommandResult {
        try await store.append([.tokenRevoked(TokenRevoked(userId: userId, tokenHash: hash))], to: ChatStreams.user(userId), eventId: .timeOrdered())
    }

    public static func tokenHash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).lowercaseHex
    }

    static func identity(_ email: String) -> SignInIdentity {
        SignInIdentity(provider: "email", subject: email)
    }

    // MARK: Sessions

    /// A new session; `eventId` names the request (`Idempotency-Key`), so a retry answers the session
    /// it started.
    public func startSession(
        by userId: Int64, title: String, tone: String, lang: String, eventId: UUID = .timeOrdered()
    ) async throws -> (sessionId: Int64, result: CommandResult) {
        try await newSession(by: userId, eventId: eventId) { sessionId in
            [.sessionStarted(try SessionDecisions.start(sessionId, by: userId, title: title, tone: tone, lang: lang))]
        }
    }

    public func rename(_ sessionId: Int64, to title: String, by userId: Int64) async throws -> CommandResult {
        try await store.decideAndAppend(ChatStreams.session(sessionId), as: SessionState.self, eventId: .timeOrdered()) { state in
            try SessionDecisions.rename(sessionId, to: title, by: userId, state: state)
        }
    }

    /// A message recorded: to `sessionId`, or to a new session titled after it when nil.
    public struct Sent: Sendable {
        public var message: UserMessageSent
        public var result: CommandResult
    }

    /// A message recorded under `eventId`, from which its message id derives: a request retried under
    /// its `Idempotency-Key` decides the same message, which the log recognises as recorded.
    public func send(
        _ text: String, tone: String, lang: String, attachments: [Attachment], to sessionId: Int64?, by userId: Int64, eventId: UUID = .timeOrdered()
    ) async throws -> Sent {
        let messageId = Self.messageId(eventId)
        if let sessionId {
            var sent: UserMessageSent?
            let result = try await store.decideAndAppend(ChatStreams.session(sessionId), as: SessionState.self, eventId: eventId) { state in
                let message = try SessionDecisions.send(
                    text, messageId: messageId, tone: tone, lang: lang, attachments: attachments, to: sessionId, by: userId, state: state
                )
                sent = message
                return [.userMessageSent(message)]
            }
            guard let sent else { throw ChatDomainError.sessionNotFound(sessionId: sessionId) }
            return Sent(message: sent, result: result)
        }
        var sent: UserMessageSent?
        let (_, result) = try await newSession(by: userId, eventId: eventId) { newId in
            let started = try SessionDecisions.start(newId, by: userId, title: ChatRules.title(from: text), tone: tone, lang: lang)
            let message = try SessionDecisions.send(
                text, messageId: messageId, tone: tone, lang: lang, attachments: attachments, to: newId, by: userId,
                state: SessionState.fold([ChatEvent.sessionStarted(started)])
            )
            sent = message
            return [.sessionStarted(started), .userMessageSent(message)]
        }
        guard let sent else { throw CommandError.tooMuchContention }
        return Sent(message: sent, result: result)
    }

    /// The session's conversation so far, for the assistant.
    public func conversation(_ sessionId: Int64) throws -> SessionState {
        try store.state(of: ChatStreams.session(sessionId), as: SessionState.self).state
    }

    /// A reply, recorded under `replyEventId`: for the reply to a message, `replyEventId(to:)` the
    /// message's event id, so that a retried request finds it (`recordedReply`) rather than asking
    /// the assistant again.
    public func recordReply(_ reply: AssistantReplied, as replyEventId: UUID = .timeOrdered()) async throws -> CommandResult {
        try await store.append([.assistantReplied(reply)], to: ChatStreams.session(reply.sessionId), eventId: replyEventId)
    }

    /// The reply already recorded under `replyEventId`, if any.
    public func recordedReply(_ replyEventId: UUID) throws -> (reply: AssistantReplied, result: CommandResult)? {
        guard let position = try store.log.position(ofEvent: replyEventId),
              case .assistantReplied(let reply)? = try store.event(at: position)?.event
        else { return nil }
        return (reply, try store.commandResult(position))
    }

    /// The event id of the reply to the message sent under `eventId`; the reply's message id is
    /// `messageId` of it.
    public static func replyEventId(to eventId: UUID) -> UUID {
        ChatCatalog.derivedEventId(from: "reply:\(eventId.uuidString)")
    }

    public func recordFailure(_ failure: AssistantFailed) async throws -> CommandResult {
        try await store.append([.assistantFailed(failure)], to: ChatStreams.session(failure.sessionId), eventId: .timeOrdered())
    }

    /// `msg_` and 12 hex digits, as the Django app makes them: the last 12 of the event's id, random
    /// in a time-ordered id and in one derived from an `Idempotency-Key`.
    public static func messageId(_ eventId: UUID) -> String {
        "msg_" + eventId.uuidString.suffix(12).lowercased()
    }

    /// Appends what `decide` records for a new session's number, on a stream that must not exist
    /// yet; a number another writer took first is asked for again. A request retried under its
    /// `Idempotency-Key` decides again for the session it started, which the log recognises as
    /// recorded, or refuses as another request under the same key.
    private func newSession(
        by userId: Int64, eventId: UUID, _ decide: (Int64) throws -> [ChatEvent]
    ) async throws -> (sessionId: Int64, result: CommandResult) {
        guard try isActive(userId) else { throw ChatDomainError.userNotFound(userId: userId) }
        // Decided once before a number is taken: a refused request leaves no gap in the session ids.
        _ = try decide(0)
        for _ in 0..<5 {
            if let original = try store.log.position(ofEvent: eventId) {
                guard case .sessionStarted(let started)? = try store.event(at: original)?.event else {
                    throw EventLogError.eventIdReused(eventId: eventId, position: original)
                }
                let events = try await store.newEvents(try decide(started.sessionId), eventId: eventId)
                let appended = try await store.log.append(to: ChatStreams.session(started.sessionId), expectedVersion: .any, events: events)
                return (started.sessionId, try store.commandResult(appended.lastPosition))
            }
            let sessionId = try await sessionNumbers.next()
            let events = try await store.newEvents(try decide(sessionId), eventId: eventId)
            do {
                let appended = try await store.log.append(to: ChatStreams.session(sessionId), expectedVersion: .noStream, events: events)
                return (sessionId, try store.commandResult(appended.lastPosition))
            } catch EventLogError.wrongExpectedVersion {
                await sessionNumbers.reset()
            } catch EventLogError.eventIdReused, EventLogError.partialDuplicate {
                // The same request, retried while the first ran (or recorded through another node this
                // one has not copied yet), started its session first: found on the next turn. The
                // number taken is given back.
                await sessionNumbers.reset()
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        throw CommandError.tooMuchContention
    }
}
