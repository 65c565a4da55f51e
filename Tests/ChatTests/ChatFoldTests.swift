import ChatCommands
import ChatDomain
import ChatProjections
import EventSourcing
import Foundation
import Logging
import ProductHosting
import ReadModels
import TestSupport
import Testing

/// The chat log and what it folds into: every event kind round-trips through the catalog, the read
/// models folded live equal a fold from position 0, an erasure leaves no trace of the user in them,
/// and each projection version keeps its recorded schema.
@Suite struct ChatFoldTests {
    static let samples: [ChatEvent] = [
        .identityClaimed(EmailClaimed(email: "a@example.com", userId: 1)),
        .userRegistered(UserRegistered(userId: 1, email: "a@example.com", profile: ChatProfile(username: "a", firstName: "A", lastName: "B"), passwordHash: "pbkdf2_sha256$1$s$h", importedDateJoined: 1_700_000_000_000_000)),
        .passwordRehashed(PasswordRehashed(userId: 1, passwordHash: "pbkdf2_sha256$2$t$h")),
        .tokenIssued(TokenIssued(userId: 1, tokenHash: "abc")),
        .tokenRevoked(TokenRevoked(userId: 1, tokenHash: "abc")),
        .sessionStarted(SessionStarted(sessionId: 7, userId: 1, title: "T", tone: "caregiver", lang: "fr-FR")),
        .sessionRenamed(SessionRenamed(sessionId: 7, userId: 1, title: "U")),
        .userMessageSent(UserMessageSent(sessionId: 7, userId: 1, messageId: "msg_000000000001", content: "hi", tone: "caregiver", lang: "fr-FR",
                                         attachments: [Attachment(sha256: String(repeating: "a", count: 64), name: "n.txt", contentType: "text/plain", size: 3)])),
        .assistantReplied(AssistantReplied(sessionId: 7, userId: 1, messageId: "msg_000000000002", inReplyTo: "msg_000000000001", content: "hello",
                                           source: ReplySource(provider: "p", model: "m", latencyMilliseconds: 5, promptTokens: 1, completionTokens: 2))),
        .assistantFailed(AssistantFailed(sessionId: 7, userId: 1, inReplyTo: "msg_000000000001", provider: "p", model: "m", latencyMilliseconds: 9, failure: "HTTP 500")),
        .userErased(UserErased(userId: 1, initiator: .operator)),
    ]

    /// Fails to compile when a case is added, so that a sample of it is added above.
    static func caseName(_ event: ChatEvent) -> String {
        switch event {
        case .identityClaimed: "identityClaimed"
        case .userRegistered: "userRegistered"
        case .passwordRehashed: "passwordRehashed"
        case .tokenIssued: "tokenIssued"
        case .tokenRevoked: "tokenRevoked"
        case .sessionStarted: "sessionStarted"
        case .sessionRenamed: "sessionRenamed"
        case .userMessageSent: "userMessageSent"
        case .assistantReplied: "assistantReplied"
        case .assistantFailed: "assistantFailed"
        case .userErased: "userErased"
        }
    }

    @Test func everyCaseIsSampledAndReadsBackFromItsLogForm() throws {
        let cipher = try testKeyStore(in: try TemporaryDirectory())
        #expect(try CatalogCheck.problems(ChatCatalog.self, samples: Self.samples, caseName: Self.caseName, cipher: cipher) == [])
    }

    @Test func theLiveFoldEqualsAFoldFromTheStartAndAnErasureLeavesNoTrace() async throws {
        let storage = try await ChatStorage()
        let commands = storage.commands
        let ana = try await commands.signUp(email: "ana@example.com", password: "long enough pass", username: nil, firstName: "Ana", lastName: nil)
        let ben = try await commands.signUp(email: "ben@example.com", password: "long enough pass", username: "ben", firstName: nil, lastName: nil)
        let (token, _) = try await commands.issueToken(for: ana)
        _ = try await commands.issueToken(for: ben)
        _ = try await commands.revokeToken(hash: ChatCommandService.tokenHash(token), of: ana)
        let (session, _) = try await commands.startSession(by: ana, title: "Ana's", tone: "PlainClinical", lang: "en-US")
        let sent = try await commands.send("Ana asks", tone: "caregiver", lang: "en-GB", attachments: [], to: session, by: ana)
        _ = try await commands.recordReply(AssistantReplied(
            sessionId: session, userId: ana, messageId: "msg_0123456789ab", inReplyTo: sent.message.messageId, content: "answer",
            source: ReplySource(provider: "test", model: "none", latencyMilliseconds: 1, promptTokens: nil, completionTokens: nil)
        ))
        _ = try await commands.rename(session, to: "Renamed", by: ana)
        _ = try await commands.send("Ben asks", tone: "faith", lang: "en-US", attachments: [], to: nil, by: ben)
        try storage.runner.catchUp()
        let live = try storage.stores.readDatabase.canonicalDump()
        #expect(live.contains("Renamed") && live.contains("Ben asks") && live.contains("Ana asks"))
        #expect(try refold(storage) == live)

        let upload = try storage.files.store(Data("Ana's notes".utf8), owner: ana)
        let bensUpload = try storage.files.store(Data("Ben's notes".utf8), owner: ben)
        // Offline, as `chat erase --user` without a server runs it: the uploads go with the key.
        _ = try await UserErasure(stores: storage.stores, runner: storage.runner).erase(ana, initiator: .user)
        #expect(!FileManager.default.fileExists(atPath: storage.files.root.appendingPathComponent("\(ana)/\(upload.sha256)").path))
        #expect(try await storage.files.contents(bensUpload.sha256, owner: ben) == Data("Ben's notes".utf8))
        let erased = try storage.stores.readDatabase.canonicalDump()
        #expect(!erased.contains("Ana") && !erased.contains("Renamed") && !erased.contains("answer"))
        #expect(erased.contains("Ben asks"))
        #expect(try refold(storage) == erased)
        #expect(try commands.account(ana) == nil)
        #expect(try commands.conversation(session).isOpen(to: ana) == false)
    }

    /// A projection version's schema is frozen: a change without a new version fails here. A new
    /// version: run once with `CHAT_RECORD_SCHEMAS=1` and commit the new file.
    @Test func eachProjectionVersionKeepsItsRecordedSchema() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Schemas")
        #expect(try projectionsWithChangedSchemas(ChatReadModels.all, recordedIn: directory, recordFlag: "CHAT_RECORD_SCHEMAS") == [])
    }

    private func refold(_ storage: ChatStorage) throws -> String {
        let path = storage.temporary.url.appendingPathComponent("refold-\(UUID().uuidString)/read.sqlite").path
        let fresh = try ReadDatabase(path: path, projections: ChatReadModels.all)
        defer { try? fresh.close() }
        try ChatRunner(log: storage.stores.log, personalData: storage.stores.personalData, database: fresh, projections: ChatReadModels.all, logger: Logger(label: "test"))
            .catchUp()
        return try fresh.canonicalDump()
    }
}
