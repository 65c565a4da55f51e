import ChatAssistant
import Foundation
import HTTPTypes
import NIOConcurrencyHelpers
import Testing

/// A write retried under its `Idempotency-Key` (after a timeout, or a 503 saying it may have been
/// saved) is recorded once and answered as the first time; without a key, each is a new request.
@Suite struct IdempotentWritesTests {
    /// Answers each call with its number, failing the calls listed in `failing`.
    final class CountingAssistant: Assistant {
        let provider = "test", model = "counting"
        let failing: Set<Int>
        private let calls = NIOLockedValueBox(0)
        var count: Int { calls.withLockedValue { $0 } }

        init(failing: Set<Int> = []) { self.failing = failing }

        func answer(_ conversation: [ChatTurn]) async throws(AssistantFailure) -> AssistantAnswer {
            let call = calls.withLockedValue { count in
                count += 1
                return count
            }
            if failing.contains(call) { throw .status(500) }
            return AssistantAnswer(content: "answer \(call)", model: model)
        }
    }

    /// Fails its first call; answers every other, remembering the last user turn it was asked about.
    final class RecordingAssistant: Assistant {
        let provider = "test", model = "recording"
        private let asked = NIOLockedValueBox<[String]>([])
        var lastQuestion: String? { asked.withLockedValue { $0.last } }

        func answer(_ conversation: [ChatTurn]) async throws(AssistantFailure) -> AssistantAnswer {
            let calls = asked.withLockedValue { asked in
                asked.append(conversation.last { $0.role == .user }?.content ?? "")
                return asked.count
            }
            if calls == 1 { throw .status(500) }
            return AssistantAnswer(content: "answer \(calls)", model: model)
        }
    }

    static func key(_ key: String) -> HTTPFields { [HTTPField.Name("Idempotency-Key")!: key] }

    @Test func aRetriedSendIsRecordedOnceAndAnsweredAsTheFirstTime() async throws {
        let assistant = CountingAssistant()
        try await ChatLiveServer.run(assistant: assistant) { server in
            let token = try await server.client.newUser("ana@example.com")
            let body = #"{"message":"Is this normal?","tone":"warm"}"#
            let first = try await server.client.send(.post, "/api/send-chat/", token: token, json: body, headers: Self.key("k-1"))
            let again = try await server.client.send(.post, "/api/send-chat/", token: token, json: body, headers: Self.key("k-1"))
            #expect(first.status == .ok && again.status == .ok, "\(again.text)")
            for field in ["id", "content", "timestamp", "session_id"] {
                #expect(again.json[field] as? NSObject == first.json[field] as? NSObject, "\(field)")
            }
            #expect(assistant.count == 1, "the assistant is not asked again")
            let sessionId = try #require(first.json["session_id"] as? Int)

            let followUp = #"{"message":"And after?","session_id":\#(sessionId)}"#
            let second = try await server.client.send(.post, "/api/send-chat/", token: token, json: followUp, headers: Self.key("k-2"))
            let secondAgain = try await server.client.send(.post, "/api/send-chat/", token: token, json: followUp, headers: Self.key("k-2"))
            #expect(secondAgain.json["id"] as? String == second.json["id"] as? String && assistant.count == 2)

            let sessions = try await server.client.send(.get, "/api/chat/sessions/", token: token).array
            #expect(sessions.count == 1)
            let messages = try #require(sessions.first?["messages"] as? [[String: Any]])
            #expect(messages.map { $0["content"] as? String } == ["Is this normal?", "answer 1", "And after?", "answer 2"])

            for _ in 0..<2 { _ = try await server.client.send(.post, "/api/send-chat/", token: token, json: followUp) }
            let unkeyed = try await server.client.send(.get, "/api/chat/sessions/", token: token).array.first?["messages"] as? [[String: Any]]
            #expect(unkeyed?.count == 8, "without a key each send is a new request")
        }
    }

    @Test func aRetryAfterTheAssistantFailedAsksAgainAndRecordsTheMessageOnce() async throws {
        let assistant = CountingAssistant(failing: [1])
        try await ChatLiveServer.run(assistant: assistant) { server in
            let token = try await server.client.newUser("ben@example.com")
            let body = #"{"message":"Hello?"}"#
            let failed = try await server.client.send(.post, "/api/send-chat/", token: token, json: body, headers: Self.key("k"))
            #expect(failed.status == .badGateway, "\(failed.text)")
            let retried = try await server.client.send(.post, "/api/send-chat/", token: token, json: body, headers: Self.key("k"))
            #expect(retried.status == .ok && retried.json["content"] as? String == "answer 2", "\(retried.text)")
            let messages = try await server.client.send(.get, "/api/chat/sessions/", token: token).array.first?["messages"] as? [[String: Any]]
            #expect(messages?.map { $0["content"] as? String } == ["Hello?", "answer 2"])
        }
    }

    /// The app retried before the first answer came back: both are one request.
    @Test func theSameSendTwiceAtOnceStartsOneSession() async throws {
        try await ChatLiveServer.run { server in
            let token = try await server.client.newUser("eve@example.com")
            let body = #"{"message":"At once?"}"#
            async let first = server.client.send(.post, "/api/send-chat/", token: token, json: body, headers: Self.key("both"))
            async let second = server.client.send(.post, "/api/send-chat/", token: token, json: body, headers: Self.key("both"))
            let (a, b) = try await (first, second)
            #expect(a.status == .ok && b.status == .ok, "\(a.text) \(b.text)")
            #expect(a.json["session_id"] as? Int == b.json["session_id"] as? Int && a.json["id"] as? String == b.json["id"] as? String)
            let sessions = try await server.client.send(.get, "/api/chat/sessions/", token: token).array
            #expect(sessions.count == 1 && (sessions.first?["messages"] as? [Any])?.count == 2, "\(sessions)")
        }
    }

    /// A retry after the assistant failed, sent after later messages, asks about its own message.
    @Test func aRetryAfterLaterMessagesAsksAboutItsOwnMessage() async throws {
        let assistant = RecordingAssistant()
        try await ChatLiveServer.run(assistant: assistant) { server in
            let token = try await server.client.newUser("fay@example.com")
            let first = try await server.client.send(.post, "/api/send-chat/", token: token, json: #"{"message":"First?"}"#, headers: Self.key("f"))
            #expect(first.status == .badGateway, "\(first.text)")
            let sessionId = try #require(first.json["detail"] as? String).split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .punctuationCharacters)) }.first
            let id = try #require(sessionId)
            _ = try await server.client.send(.post, "/api/send-chat/", token: token, json: #"{"message":"Second?","session_id":\#(id)}"#)
            let retried = try await server.client.send(.post, "/api/send-chat/", token: token, json: #"{"message":"First?"}"#, headers: Self.key("f"))
            #expect(retried.status == .ok, "\(retried.text)")
            #expect(assistant.lastQuestion == "First?", "the model was asked about the retried message, not the newest")
        }
    }

    @Test func aKeyUsedForAnotherRequestIsRefusedAndRecordsNothing() async throws {
        try await ChatLiveServer.run { server in
            let token = try await server.client.newUser("cy@example.com")
            _ = try await server.client.send(.post, "/api/send-chat/", token: token, json: #"{"message":"One"}"#, headers: Self.key("k"))
            let reused = try await server.client.send(.post, "/api/send-chat/", token: token, json: #"{"message":"Two"}"#, headers: Self.key("k"))
            #expect(reused.status == .unprocessableContent && reused.json["error"] as? String == "idempotency_key_reused", "\(reused.text)")
            let sessions = try await server.client.send(.get, "/api/chat/sessions/", token: token).array
            #expect(sessions.count == 1 && (sessions.first?["messages"] as? [Any])?.count == 2)
            let tooLong = try await server.client.send(.post, "/api/send-chat/", token: token, json: #"{"message":"Three"}"#, headers: Self.key(String(repeating: "k", count: 256)))
            #expect(tooLong.status == .badRequest && tooLong.isErrorShape, "\(tooLong.text)")
        }
    }

    /// The key of a send that started a session, sent again to that session: another request (it was
    /// decided on the session as it stood before its own start, and answered 404 for a session there is).
    @Test func aKeyThatStartedASessionSentToThatSessionIsAnotherRequest() async throws {
        try await ChatLiveServer.run { server in
            let token = try await server.client.newUser("di@example.com")
            let first = try await server.client.send(.post, "/api/send-chat/", token: token, json: #"{"message":"One"}"#, headers: Self.key("k"))
            let session = try #require(first.json["session_id"] as? Int)
            let reused = try await server.client.send(
                .post, "/api/send-chat/", token: token, json: #"{"message":"One","session_id":\#(session)}"#, headers: Self.key("k")
            )
            #expect(reused.status == .unprocessableContent && reused.json["error"] as? String == "idempotency_key_reused", "\(reused.text)")
        }
    }

    /// A reused key is refused before the new request's files are stored (they were left behind,
    /// sealed under the uploads directory, though the answer said nothing was recorded).
    @Test func aKeyReusedWithOtherFilesStoresNoneOfThem() async throws {
        try await ChatLiveServer.run { server in
            let token = try await server.client.newUser("fil@example.com")
            func send(_ message: String, _ contents: String) async throws -> ChatClient.Reply {
                try await server.client.sendMultipart(
                    "/api/send-chat/", token: token, fields: [("message", message)], files: [("f.txt", "text/plain", Array(contents.utf8))], headers: Self.key("m")
                )
            }
            func storedFiles() -> Int {
                FileManager.default.enumerator(at: server.storage.files.root, includingPropertiesForKeys: nil)?
                    .compactMap { ($0 as? URL)?.hasDirectoryPath == false ? $0 : nil }.count ?? 0
            }
            #expect(try await send("One", "first file").status == .ok)
            #expect(storedFiles() == 1)
            let reused = try await send("Two", "second file")
            #expect(reused.status == .unprocessableContent && reused.json["error"] as? String == "idempotency_key_reused", "\(reused.text)")
            #expect(try await send("One", "first file").status == .ok, "the same request again is answered as the first time")
            #expect(storedFiles() == 1)
        }
    }

    @Test func aRetriedNewSessionAnswersTheSessionItStarted() async throws {
        try await ChatLiveServer.run { server in
            let token = try await server.client.newUser("dee@example.com")
            let body = #"{"title":"Plans","tone":"PlainClinical"}"#
            let first = try await server.client.send(.post, "/api/chat/sessions/new/", token: token, json: body, headers: Self.key("s"))
            let again = try await server.client.send(.post, "/api/chat/sessions/new/", token: token, json: body, headers: Self.key("s"))
            #expect(first.status == .created && again.status == .created)
            #expect(again.json["id"] as? Int == first.json["id"] as? Int && again.json["created_at"] as? String == first.json["created_at"] as? String)
            let other = try await server.client.send(.post, "/api/chat/sessions/new/", token: token, json: #"{"title":"Other"}"#, headers: Self.key("s"))
            #expect(other.status == .unprocessableContent, "\(other.text)")
            #expect(try await server.client.send(.get, "/api/chat/sessions/", token: token).array.count == 1)
        }
    }
}
