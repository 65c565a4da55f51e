import EventSourcing
import Foundation

/// A user's own stream folded: who they are, their password hash, when they joined and last logged
/// in, and the hashes of their live tokens, oldest first. `registered` is nil before registration and
/// after an erasure (which also leaves the personal fields absent).
public struct AccountState: StreamState, Equatable {
    public typealias Event = ChatEvent

    public struct Registered: Sendable, Equatable {
        public var userId: Int64
        public var email: String
        public var profile: ChatProfile
        public var passwordHash: String
        public var dateJoined: Date
        public var lastLogin: Date?
        public var liveTokens: [String]
    }

    public private(set) var registered: Registered?

    public init() {}

    public mutating func evolve(_ recorded: Recorded<ChatEvent>) {
        switch recorded.event {
        case .userRegistered(let e):
            guard let email = e.email, let profile = e.profile, let passwordHash = e.passwordHash else { return }
            registered = Registered(
                userId: e.userId, email: email, profile: profile, passwordHash: passwordHash,
                dateJoined: e.importedDateJoined.map(ChatTime.date(microseconds:)) ?? recorded.recordedAt, lastLogin: nil, liveTokens: []
            )
        case .passwordRehashed(let e):
            if let passwordHash = e.passwordHash { registered?.passwordHash = passwordHash }
        case .tokenIssued(let e):
            registered?.liveTokens.append(e.tokenHash)
            registered?.lastLogin = recorded.recordedAt
        case .tokenRevoked(let e):
            registered?.liveTokens.removeAll { $0 == e.tokenHash }
        case .userErased:
            registered = nil
        case .identityClaimed, .sessionStarted, .sessionRenamed, .userMessageSent, .assistantReplied, .assistantFailed:
            break
        }
    }

    public var retainedBytes: Int {
        guard let registered else { return MemoryLayout<Self>.size }
        return MemoryLayout<Self>.size + heapBytes(of: [registered.email, registered.passwordHash, registered.profile.username, registered.profile.firstName, registered.profile.lastName])
            + heapBytes(of: registered.liveTokens)
    }
}

/// Instants as the chat product records them: whole microseconds since 1970, as the log does.
public enum ChatTime {
    public static func microseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
    }

    public static func date(microseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(microseconds) / 1_000_000)
    }
}
