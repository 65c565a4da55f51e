import ChatCommands
import ChatDomain
import Foundation
import TestSupport
import Testing

/// Chat's decisions read as given these events, when this command, then these events.
@Suite struct ChatScenarioTests {
    typealias Scenario = CommandScenario<ChatCatalog, ChatCommandService>

    static let accounts: [(stream: String, event: ChatEvent)] = [1, 2].map { userId in
        (ChatStreams.user(userId), .userRegistered(UserRegistered(
            userId: userId, email: "user\(userId)@example.com", profile: ChatProfile(username: "user\(userId)", firstName: "", lastName: ""),
            passwordHash: "pbkdf2_sha256$1$s$h", importedDateJoined: nil
        )))
    }
    static let session: (stream: String, event: ChatEvent) = (
        ChatStreams.session(7), .sessionStarted(SessionStarted(sessionId: 7, userId: 1, title: "Sleep", tone: "warm", lang: "en-US"))
    )

    @Test func givenASessionWhenItsOwnerSendsThenTheMessageIsRecordedUnderTheRequestsId() async throws {
        let scenario = try Scenario { try ChatCommandService(store: $0) }
        try await scenario.given(Self.accounts + [Self.session])
        let eventId = UUID()
        let recorded = try await scenario.when { _ = try await $0.send("Is 6 hours enough?", tone: "warm", lang: "en-US", attachments: [], to: 7, by: 1, eventId: eventId) }
        #expect(recorded == [.userMessageSent(UserMessageSent(
            sessionId: 7, userId: 1, messageId: ChatCommandService.messageId(eventId), content: "Is 6 hours enough?", tone: "warm", lang: "en-US", attachments: []
        ))])
        #expect(try await scenario.when { _ = try await $0.send("Is 6 hours enough?", tone: "warm", lang: "en-US", attachments: [], to: 7, by: 1, eventId: eventId) } == [],
                "the same request again records nothing")
    }

    @Test func givenAnotherUsersSessionWhenOneSendsToItOrRenamesItThenItIsNotFound() async throws {
        let scenario = try Scenario { try ChatCommandService(store: $0) }
        try await scenario.given(Self.accounts + [Self.session])
        try await scenario.whenRefused(ChatDomainError.sessionNotFound(sessionId: 7)) {
            _ = try await $0.send("Hi", tone: "warm", lang: "en-US", attachments: [], to: 7, by: 2)
        }
        try await scenario.whenRefused(ChatDomainError.sessionNotFound(sessionId: 7)) { _ = try await $0.rename(7, to: "Mine", by: 2) }
    }
}
