import ChatAssistant
import Foundation
import HTTPTypes
import NIOCore
import Testing

/// The sessions and send-chat endpoints, exactly as the contract shows them.
@Suite struct SessionsAPITests {
    @Test func aNewSessionAnswersItsToneAsSentAndStoresItInSnakeCase() async throws {
        try await ChatLiveServer.run { server in
            let token = try await server.client.newUser("ana@example.com")
            let created = try await server.client.send(.post, "/api/chat/sessions/new/", token: token, json: #"{"title":"New Conversation","tone":"PlainClinical","lang":"en-US"}"#)
            #expect(created.status == .created)
            #expect(Set(created.json.keys) == ["id", "title", "created_at", "tone", "language"])
            #expect(created.json["tone"] as? String == "PlainClinical")
            #expect(created.json["language"] as? String == "en-US")
            #expect(AccountTests.isDjangoTime(created.json["created_at"]))
            let listed = try await server.client.send(.get, "/api/chat/sessions/", token: token)
            #expect(listed.array.count == 1)
            #expect(listed.array.first?["tone"] as? String == "plain_clinical")
            #expect(listed.array.first?["messages"] as? [Any] != nil)
            let defaults = try await server.client.send(.post, "/api/chat/sessions/new/", token: token, json: "")
            #expect(defaults.status == .created)
            #expect(defaults.json["title"] as? String == "New Conversation")
        }
    }

    /// Bad input changes nothing, the session ids included: a refused new session takes no number.
    @Test func aRefusedNewSessionLeavesNoGapInTheIds() async throws {
        try await ChatLiveServer.run { server in
            let token = try await server.client.newUser("gap@example.com")
            let first = try await server.client.send(.post, "/api/chat/sessions/new/", token: token, json: "{}")
            for refused in [#"{"title":"   "}"#, #"{"lang":""}"#, #"{"tone":"a b"}"#] {
                #expect(try await server.client.send(.post, "/api/chat/sessions/new/", token: token, json: refused).status == .badRequest)
            }
            #expect(try await server.client.send(.post, "/api/send-chat/", token: token, json: #"{"message":"hi","tone":"a b"}"#).status == .badRequest)
            let next = try await server.client.send(.post, "/api/chat/sessions/new/", token: token, json: "{}")
            let firstId = try #require(first.json["id"] as? Int)
            #expect(next.json["id"] as? Int == firstId + 1)
        }
    }

    @Test func sendChatAsJSONRecordsTheMessageAndAnswersTheReply() async throws {
        try await ChatLiveServer.run { server in
            let token = try await server.client.newUser("ben@example.com")
            let reply = try await server.client.chat(token, "What are the symptoms of diabetes?")
            #expect(reply.status == .ok)
            #expect(Set(reply.json.keys) == ["id", "role", "content", "timestamp", "session_id", "metadata"])
            #expect((reply.json["id"] as? String)?.wholeMatch(of: #/msg_[0-9a-f]{12}/#) != nil)
            #expect(reply.json["role"] as? String == "assistant")
            #expect(reply.json["content"] as? String == OfflineAssistant.reply)
            #expect(reply.json["metadata"] is NSNull)
            #expect(AccountTests.isDjangoTime(reply.json["timestamp"]))
            let sessionId = try #require(reply.json["session_id"] as? Int)

            let second = try await server.client.chat(token, "And how is it treated?", sessionId: Int64(sessionId))
            #expect(second.json["session_id"] as? Int == sessionId)
            let sessions = try await server.client.send(.get, "/api/chat/sessions/", token: token).array
            #expect(sessions.count == 1)
            let session = try #require(sessions.first)
            #expect(session["title"] as? String == "What are the symptoms of diabetes?")
            let messages = try #require(session["messages"] as? [[String: Any]])
            #expect(messages.map { $0["role"] as? String } == ["user", "assistant", "user", "assistant"])
            #expect(messages.map { $0["content"] as? String }[2] == "And how is it treated?")
            #expect(messages.allSatisfy { $0["session_id"] as? Int == sessionId && $0["metadata"] is NSNull })
            #expect(session["updated_at"] as? String == messages.last?["timestamp"] as? String)
        }
    }

    /// The contract's view takes a URL-encoded form too, and starts a session for any falsy
    /// `session_id`: absent, null, "" or 0.
    @Test func sendChatAsAURLEncodedFormAndAFalsySessionIdStartsASession() async throws {
        try await ChatLiveServer.run { server in
            let token = try await server.client.newUser("form@example.com")
            let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
            let first = try await server.client.send(.post, "/api/send-chat/", token: token, body: ByteBuffer(string: "message=Is+50%25+too+much%3F&tone=warm"), headers: form)
            #expect(first.status == .ok, "\(first.text)")
            let sessionId = try #require(first.json["session_id"] as? Int)
            let second = try await server.client.send(.post, "/api/send-chat/", token: token, body: ByteBuffer(string: "message=And+then&session_id=\(sessionId)"), headers: form)
            #expect(second.json["session_id"] as? Int == sessionId)
            for falsy in [#""""#, "0", "null"] {
                let reply = try await server.client.send(.post, "/api/send-chat/", token: token, json: #"{"message":"New topic","session_id":\#(falsy)}"#)
                #expect(reply.status == .ok && reply.json["session_id"] as? Int != sessionId, "\(falsy): \(reply.text)")
            }
            let sessions = try await server.client.send(.get, "/api/chat/sessions/", token: token).array
            #expect(sessions.count == 4)
            #expect(sessions.last?["title"] as? String == "Is 50% too much?")
            let malformed = try await server.client.send(.post, "/api/send-chat/", token: token, body: ByteBuffer(string: "message=%ZZ"), headers: form)
            #expect(malformed.status == .badRequest && malformed.isErrorShape, "\(malformed.text)")
        }
    }

    @Test func sessionsAreListedNewestUpdatedFirst() async throws {
        try await ChatLiveServer.run { server in
            let token = try await server.client.newUser("cy@example.com")
            let first = try #require(try await server.client.chat(token, "first").json["session_id"] as? Int)
            let second = try #require(try await server.client.chat(token, "second").json["session_id"] as? Int)
            #expect(try await server.client.send(.get, "/api/chat/sessions/", token: token).array.map { $0["id"] as? Int } == [second, first])
            _ = try await server.client.chat(token, "first again", sessionId: Int64(first))
            #expect(try await server.client.send(.get, "/api/chat/sessions/", token: token).array.map { $0["id"] as? Int } == [first, second])
        }
    }

    @Test func sendChatAsMultipartStoresTheFilesAndSendsTextFilesToTheModel() async throws {
        let model = FakeModelServer()
        try await model.run { baseURL in
            let assistant = OpenAICompatibleAssistant(settings: .init(baseURL: baseURL, apiKey: "k", model: "fake", timeout: .seconds(10)), client: .shared)
            try await ChatLiveServer.run(assistant: assistant) { server in
                let token = try await server.client.newUser("dee@example.com")
                let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]
                let reply = try await server.client.sendMultipart("/api/send-chat/", token: token, fields: [
                    ("message", "Please analyze this"), ("tone", "PlainClinical"), ("lang", "en-US"), ("session_id", ""),
                ], files: [("notes.txt", "text/plain", Array("blood sugar 7.2 mmol/L".utf8)), ("scan.png", "image/png", png)])
                #expect(reply.status == .ok, "\(reply.text)")
                #expect(reply.json["content"] as? String == "A fake model's answer.")
                let sent = model.lastMessages
                #expect(sent.first?["role"] == "system")
                let user = try #require(sent.last?["content"])
                #expect(user.contains("Please analyze this") && user.contains("blood sugar 7.2 mmol/L") && user.contains("scan.png"))
                let stored = try FileManager.default.contentsOfDirectory(atPath: server.storage.files.root.path)
                #expect(stored.count == 1, "one owner's directory")

                let sessionId = try #require(reply.json["session_id"] as? Int)
                let again = try await server.client.sendMultipart("/api/send-chat/", token: token, fields: [
                    ("message", "and this"), ("session_id", "\(sessionId)"),
                ], files: [])
                #expect(again.json["session_id"] as? Int == sessionId)
            }
        }
    }

    @Test func badMessagesAreRefusedInTheContractShapeAndRecordNothing() async throws {
        try await ChatLiveServer.run { server in
            let token = try await server.client.newUser("eli@example.com")
            let before = server.storage.headPosition
            let cases: [(ChatClient.Reply, HTTPResponse.Status, String)] = [
                (try await server.client.chat(token, "   "), .badRequest, "empty_message"),
                (try await server.client.send(.post, "/api/send-chat/", token: token, json: "{}"), .badRequest, "empty_message"),
                (try await server.client.chat(token, "hi", sessionId: 999), .notFound, "session_not_found"),
                (try await server.client.send(.post, "/api/send-chat/", token: token, body: .init(string: "message=hi"), headers: [.contentType: "text/plain"]), .unsupportedMediaType, "unsupported_media_type"),
                (try await server.client.send(.post, "/api/send-chat/", token: token, json: #"{"message":"hi","session_id":"x1"}"#), .badRequest, "validation_error"),
                (try await server.client.send(.post, "/api/send-chat/", token: token, json: #"{"message":"hi","tone":"no tone!"}"#), .badRequest, "validation_error"),
                (try await server.client.send(.post, "/api/chat/sessions/new/", token: token, json: #"{"tone":"\#(String(repeating: "a", count: 33))"}"#), .badRequest, "validation_error"),
                (try await server.client.send(.post, "/api/send-chat/", token: token, json: #"{"message":"hi","lang":"x"}"#), .badRequest, "validation_error"),
                (try await server.client.send(.post, "/api/send-chat/", token: token, json: #"{"message":["hi"]}"#), .badRequest, "validation_error"),
                (try await server.client.sendMultipart("/api/send-chat/", token: token, fields: [("message", "see file")], files: [("a.exe", "application/x-msdownload", [1, 2])]), .badRequest, "validation_error"),
                (try await server.client.sendMultipart("/api/send-chat/", token: token, fields: [("message", "see file")], files: [("fake.png", "image/png", Array("not a png".utf8))]), .badRequest, "validation_error"),
                (try await server.client.sendMultipart("/api/send-chat/", token: token, fields: [("message", "see file")], files: Array(repeating: ("a.txt", "text/plain", [0x61]), count: 6)), .badRequest, "validation_error"),
                // Text is text: no NUL, and JSON that parses.
                (try await server.client.sendMultipart("/api/send-chat/", token: token, fields: [("message", "see file")], files: [("a.txt", "text/plain", [0x61, 0x00, 0x62])]), .badRequest, "validation_error"),
                (try await server.client.sendMultipart("/api/send-chat/", token: token, fields: [("message", "see file")], files: [("a.json", "application/json", Array("{bad".utf8))]), .badRequest, "validation_error"),
                (try await server.client.sendMultipart("/api/send-chat/", token: token, fields: [("message", "see file")], files: [("a.json", "application/json", Array(#"{"a":[1,2,],}"#.utf8))]), .badRequest, "validation_error"),
                (try await server.client.sendMultipart("/api/send-chat/", token: token, fields: [("message", "see file")], files: [("a.json", "application/json", Array(#"{"a":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8))]), .badRequest, "validation_error"),
                (try await server.client.sendMultipart("/api/send-chat/", token: token, fields: [("message", "see file")], files: [("a.json", "application/json", Array(#"{"a":""#.utf8) + [0x00] + Array(#""}"#.utf8))]), .badRequest, "validation_error"),
                // A file part without a name, or under another field than files[], was dropped while the message was recorded.
                (try await server.client.sendRawMultipart(ByteBuffer(string: "--B\r\nContent-Disposition: form-data; name=\"message\"\r\n\r\nhi\r\n--B\r\nContent-Disposition: form-data; name=\"files[]\"\r\nContent-Type: text/plain\r\n\r\nabc\r\n--B--\r\n"), token: token), .badRequest, "validation_error"),
                (try await server.client.sendRawMultipart(ByteBuffer(string: "--B\r\nContent-Disposition: form-data; name=\"message\"\r\n\r\nhi\r\n--B\r\nContent-Disposition: form-data; name=\"attachment\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\nabc\r\n--B--\r\n"), token: token), .badRequest, "validation_error"),
                (try await server.client.send(.post, "/api/chat/sessions/new/", token: token, json: #"{"title":""}"#), .badRequest, "validation_error"),
                (try await server.client.send(.patch, "/api/chat/sessions/999/", token: token, json: #"{"title":"x"}"#), .notFound, "session_not_found"),
                // Control characters, which a read model would cut at or show garbled, in every text a user sends.
                (try await server.client.send(.post, "/api/send-chat/", token: token, json: #"{"message":"before\u0000after"}"#), .badRequest, "validation_error"),
                (try await server.client.send(.post, "/api/send-chat/", token: token, json: #"{"message":"bell\u0007"}"#), .badRequest, "validation_error"),
                (try await server.client.send(.post, "/api/chat/sessions/new/", token: token, json: #"{"title":"a\u0000b"}"#), .badRequest, "validation_error"),
                (try await server.client.sendMultipart("/api/send-chat/", token: token, fields: [("message", "nul\u{0}here")], files: []), .badRequest, "validation_error"),
                (try await server.client.sendMultipart("/api/send-chat/", token: token, fields: [("message", "see file")], files: [("a\u{0}.txt", "text/plain", [0x61])]), .badRequest, "validation_error"),
                (try await server.client.send(.post, "/api/signup/", json: #"{"email":"nul@example.com","password":"correct horse battery","first_name":"A\u0000B"}"#), .badRequest, "validation_error"),
                // A part header name with a byte past ASCII trapped the multipart parser (a crash, not a 400).
                (try await server.client.sendRawMultipart(ByteBuffer(string: "--B\r\nContent-Dispösition: form-data; name=\"message\"\r\n\r\nhi\r\n--B--\r\n"), token: token), .badRequest, "validation_error"),
                // The same byte in a header line cut off by the closing delimiter, or by the body's end.
                (try await server.client.sendRawMultipart(ByteBuffer(bytes: Array("--B\r\nContent-Disposition: form-data; name=\"message\"\r\n".utf8) + [0xFF] + Array("--B--".utf8)), token: token), .badRequest, "validation_error"),
                (try await server.client.sendRawMultipart(ByteBuffer(bytes: Array("--B\r\nContent-Disposition: form-data; name=\"message\"\r\n".utf8) + [0xC3, 0xB6]), token: token), .badRequest, "validation_error"),
                // …and in a part that follows a body holding the delimiter's text without its CR LF.
                (try await server.client.sendRawMultipart(ByteBuffer(bytes: Array("--B\r\nContent-Disposition: form-data; name=\"message\"\r\n\r\nhello--B\r\n--B\r\n".utf8) + [0x80] + Array(": y\r\n\r\nz\r\n--B--\r\n".utf8)), token: token), .badRequest, "validation_error"),
                // No body at all is no fields, whatever its type: an empty multipart body trapped a bounds check.
                (try await server.client.sendRawMultipart(ByteBuffer(), token: token), .badRequest, "empty_message"),
                (try await server.client.send(.post, "/api/send-chat/", token: token), .badRequest, "empty_message"),
                // Cut short: the parser took what came before the cut as the whole form (a file left
                // out, or the session's id, so that the message went to a new session).
                (try await server.client.sendRawMultipart(ByteBuffer(string: "--B\r\nContent-Disposition: form-data; name=\"message\"\r\n\r\nhi\r\n--B\r\nContent-Disposition: form-data; name=\"session_id\"\r\n\r\n1"), token: token), .badRequest, "validation_error"),
                (try await server.client.sendRawMultipart(ByteBuffer(string: "--B\r\nContent-Disposition: form-data; name=\"message\"\r\n\r\nhi\r\n--B\r\nContent-Disposition: form-data; name=\"files[]\"; filename=\"a.txt\"\r\nContent-Type: text/plain\r\n\r\nhalf a fi"), token: token), .badRequest, "validation_error"),
            ]
            for (reply, status, code) in cases {
                #expect(reply.status == status, "\(reply.text)")
                #expect(reply.errorCode == code, "\(reply.text)")
                #expect(reply.isErrorShape, "\(reply.text)")
            }
            #expect(server.storage.headPosition == before)
            #expect(!FileManager.default.fileExists(atPath: server.storage.files.root.path))
        }
    }

    @Test func anotherUsersSessionIsNeverReadable() async throws {
        try await ChatLiveServer.run { server in
            let owner = try await server.client.newUser("owner@example.com")
            let other = try await server.client.newUser("other@example.com")
            let sessionId = try #require(try await server.client.chat(owner, "my private question").json["session_id"] as? Int)
            let before = server.storage.headPosition
            let send = try await server.client.chat(other, "let me in", sessionId: Int64(sessionId))
            #expect(send.status == .notFound && send.errorCode == "session_not_found")
            let rename = try await server.client.send(.patch, "/api/chat/sessions/\(sessionId)/", token: other, json: #"{"title":"mine now"}"#)
            #expect(rename.status == .notFound)
            let listed = try await server.client.send(.get, "/api/chat/sessions/", token: other)
            #expect(listed.array.isEmpty && !listed.text.contains("my private question"))
            #expect(server.storage.headPosition == before)
        }
    }

    @Test func renamingMovesTheSessionToTheTop() async throws {
        try await ChatLiveServer.run { server in
            let token = try await server.client.newUser("fin@example.com")
            let first = try #require(try await server.client.chat(token, "one").json["session_id"] as? Int)
            _ = try await server.client.chat(token, "two")
            let renamed = try await server.client.send(.patch, "/api/chat/sessions/\(first)/", token: token, json: #"{"title":"  Renamed  "}"#)
            #expect(renamed.status == .ok)
            #expect(renamed.json["title"] as? String == "Renamed")
            #expect(try await server.client.send(.get, "/api/chat/sessions/", token: token).array.first?["id"] as? Int == first)
        }
    }
}
