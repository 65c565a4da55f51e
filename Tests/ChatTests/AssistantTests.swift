import ChatAssistant
import Foundation
import Testing

/// The OpenAI-compatible client against a fake server on 127.0.0.1, and what the API answers when
/// the model fails: the user's message stays recorded, and so does the failure.
@Suite struct AssistantTests {
    static func assistant(_ baseURL: URL, timeout: Duration = .seconds(10)) -> OpenAICompatibleAssistant {
        OpenAICompatibleAssistant(
            settings: .init(baseURL: baseURL, apiKey: "sk-test", model: "fake", temperature: 0.3, timeout: timeout, maximumResponseBytes: 64 * 1024)
        )
    }

    @Test func theClientSendsTheConversationAndReadsTheAnswer() async throws {
        let model = FakeModelServer()
        try await model.run { baseURL in
            let answer = try await Self.assistant(baseURL).answer([ChatTurn(role: .system, content: "be brief"), ChatTurn(role: .user, content: "hello")])
            #expect(answer == AssistantAnswer(content: "A fake model's answer.", model: "fake-model-1", promptTokens: 42, completionTokens: 7))
            let request = try #require(model.lastRequest)
            #expect(request["model"] as? String == "fake")
            #expect(request["temperature"] as? Double == 0.3)
            #expect(model.lastMessages == [["role": "system", "content": "be brief"], ["role": "user", "content": "hello"]])
        }
    }

    @Test func eachFailureIsAnAssistantFailure() async throws {
        let model = FakeModelServer()
        try await model.run { baseURL in
            // Only the slow case runs against a short deadline: the others must not time out on a loaded machine.
            let cases: [(FakeModelServer.Behaviour, Duration, (AssistantFailure) -> Bool)] = [
                (.slow(.seconds(5)), .seconds(1), { $0.isTimeout }),
                (.status(500), .seconds(30), { $0 == .status(500) }),
                (.malformed, .seconds(30), { if case .malformed = $0 { true } else { false } }),
                (.tooLong(bytes: 200_000), .seconds(30), { $0 == .tooLong(bytes: 64 * 1024) }),
            ]
            for (behaviour, timeout, expected) in cases {
                model.behaviour.withLockedValue { $0 = behaviour }
                do throws(AssistantFailure) {
                    _ = try await Self.assistant(baseURL, timeout: timeout).answer([ChatTurn(role: .user, content: "hi")])
                    Issue.record("\(behaviour) answered")
                } catch let failure {
                    #expect(expected(failure), "\(behaviour): \(failure)")
                }
            }
        }
        let unreachable = Self.assistant(URL(string: "http://127.0.0.1:9/v1")!, timeout: .seconds(2))
        await #expect(throws: AssistantFailure.self) { try await unreachable.answer([ChatTurn(role: .user, content: "hi")]) }
    }

    /// A model whose port refuses connections is unreachable at once, not after the request's whole
    /// deadline (AsyncHTTPClient's shared client tries the connection again until then).
    @Test(.timeLimit(.minutes(1))) func aModelThatRefusesConnectionsIsUnreachableAtOnce() async throws {
        let refusing = Self.assistant(try #require(URL(string: "http://127.0.0.1:9/v1")), timeout: .seconds(600))
        do throws(AssistantFailure) {
            _ = try await refusing.answer([ChatTurn(role: .user, content: "hi")])
            Issue.record("a refused connection answered")
        } catch let failure {
            #expect(!failure.isTimeout, "\(failure)")
        }
    }

    @Test func whenTheModelFailsTheMessageStaysAndTheAnswerSaysWhy() async throws {
        let model = FakeModelServer()
        try await model.run { baseURL in
            try await ChatLiveServer.run(assistant: Self.assistant(baseURL, timeout: .seconds(4))) { server in
                let token = try await server.client.newUser("gil@example.com")
                model.behaviour.withLockedValue { $0 = .slow(.seconds(8)) }
                let slow = try await server.client.chat(token, "are you there?")
                #expect(slow.status == .gatewayTimeout && slow.errorCode == "assistant_timeout" && slow.isErrorShape, "\(slow.text)")
                #expect((slow.json["detail"] as? String)?.hasSuffix("; the assistant gave no answer within 4.0 s. Send it again to retry.") == true, "\(slow.text)")
                model.behaviour.withLockedValue { $0 = .status(500) }
                let failed = try await server.client.chat(token, "still there?")
                #expect(failed.status == .badGateway && failed.errorCode == "assistant_unavailable", "\(failed.text)")
                model.behaviour.withLockedValue { $0 = .malformed }
                #expect(try await server.client.chat(token, "hello?").status == .badGateway)
                model.behaviour.withLockedValue { $0 = .tooLong(bytes: 200_000) }
                #expect(try await server.client.chat(token, "anyone?").status == .badGateway)

                try await Task.sleep(for: .milliseconds(100))
                let sessions = try await server.client.send(.get, "/api/chat/sessions/", token: token).array
                let contents = sessions.flatMap { ($0["messages"] as? [[String: Any]] ?? []).compactMap { $0["content"] as? String } }
                #expect(Set(contents) == ["are you there?", "still there?", "hello?", "anyone?"])
                let types = try server.storage.eventTypes()
                #expect(types.filter { $0 == "assistant-failed" }.count == 4)
                #expect(!types.contains("assistant-replied"))
            }
        }
    }

    /// A model's reply is nobody's to send again: a character no event may hold (a NUL, which the
    /// read model would cut at) is answered and stored as U+FFFD, so that the list shows what was answered.
    @Test func aReplyIsStoredAsItIsAnswered() async throws {
        let model = FakeModelServer()
        try await model.run { baseURL in
            try await ChatLiveServer.run(assistant: Self.assistant(baseURL)) { server in
                let token = try await server.client.newUser("nul@example.com")
                model.behaviour.withLockedValue { $0 = .answer("a\u{0}b\u{7}c") }
                let answered = try await server.client.chat(token, "hello")
                #expect(answered.json["content"] as? String == "a\u{FFFD}b\u{FFFD}c", "\(answered.text)")
                let sessions = try await server.client.send(.get, "/api/chat/sessions/", token: token).array
                let listed = sessions.first.flatMap { ($0["messages"] as? [[String: Any]])?.last?["content"] as? String }
                #expect(listed == "a\u{FFFD}b\u{FFFD}c")
            }
        }
    }

    @Test func theReplyRecordsWhatAnsweredAndWhatItCost() async throws {
        let model = FakeModelServer()
        try await model.run { baseURL in
            try await ChatLiveServer.run(assistant: Self.assistant(baseURL)) { server in
                let token = try await server.client.newUser("hal@example.com")
                model.behaviour.withLockedValue { $0 = .answer("A fake model's answer.", after: .milliseconds(300)) }
                #expect(try await server.client.chat(token, "hello").status == .ok)
                let replies = try server.storage.stores.log.read(from: 1, limit: .max).compactMap { recorded -> ChatEvent? in
                    let event = try server.storage.stores.store.decode(recorded).event
                    if case .assistantReplied = event { return event }
                    return nil
                }
                guard case .assistantReplied(let reply) = try #require(replies.first) else { return }
                #expect(reply.source.provider == "openai-compatible")
                #expect(reply.source.model == "fake-model-1")
                #expect(reply.source.promptTokens == 42 && reply.source.completionTokens == 7)
                #expect(reply.source.latencyMilliseconds >= 300, "the model took at least 300 ms to answer: \(reply.source.latencyMilliseconds)")
            }
        }
    }

    @Test func theHistorySentIsBoundedByTheBudgetNewestFirst() {
        let turns = (0..<50).map { ChatTurn(role: $0 % 2 == 0 ? .user : .assistant, content: "turn \($0) " + String(repeating: "x", count: 400)) }
        let fitted = ConversationBudget(tokens: 1_000).fit(system: "system prompt", turns: turns)
        #expect(fitted.first == ChatTurn(role: .system, content: "system prompt"))
        #expect(fitted.last == turns.last)
        #expect(fitted.count > 2 && fitted.count < 12)
        #expect(Array(fitted.dropFirst()) == Array(turns.suffix(fitted.count - 1)))
        let huge = ConversationBudget(tokens: 100).fit(system: "s", turns: [ChatTurn(role: .user, content: String(repeating: "y", count: 10_000))])
        #expect(huge.count == 2 && huge[1].content.count < 400)
    }
}

import ChatDomain
