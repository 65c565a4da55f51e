import ChatCommands
import ChatDomain
import Foundation
import Hummingbird
import PersonalData
import ProductHosting
import ReadModels

/// `POST /api/send-chat/`, as JSON (`message`, `tone`, `lang`, `session_id`), as a URL-encoded form
/// with the same fields, or as a multipart form with them and `files[]`. Without `session_id` (or
/// with `""` or 0) a new session is started, titled after the message. The message is recorded
/// first; then the assistant's reply, which is the answer. Retried under the same `Idempotency-Key`, it
/// records nothing again and answers the reply recorded (or asks again, if none was).
struct SendChatController: Sendable {
    let conversations: Conversations
    let files: SealedFiles
    let readYourWrites: ReadYourWrites
    let uploads: UploadBudget

    func send(_ request: Request, context: ChatSignedInContext) async throws -> MessageJSON {
        let eventId = try request.eventId(of: ChatCatalog.self, userId: context.userId, action: "send-chat")
        // The body and its files are held only while they are read, checked and stored, within the budget.
        let (message, tone, lang, sessionId, attachments) = try await uploads.metering(request) { request in
            let fields = try await FormFields.jsonOrForm(request, context: context)
            let message = try fields.string("message") ?? ""
            guard !message.allSatisfy(\.isWhitespace) else { throw ChatAPIError.emptyMessage }
            let tone = try fields.string("tone") ?? ChatRules.defaultTone
            let lang = try fields.string("lang") ?? ChatRules.defaultLanguage
            // The contract's view starts a session when `session_id` is falsy: absent, null, "" or 0.
            let sessionId = try fields.integer("session_id").flatMap { $0 == 0 ? nil : $0 }
            _ = try ChatRules.message(message)
            _ = try ChatRules.tone(tone)
            _ = try ChatRules.language(lang)
            if let sessionId, try !conversations.commands.conversation(sessionId).isOpen(to: context.userId) {
                throw ChatDomainError.sessionNotFound(sessionId: sessionId)
            }
            let recorded = try fields.files.isEmpty ? false : conversations.commands.store.isRecorded(eventId)
            return (message, tone, lang, sessionId, try await store(fields.files, owner: context.userId, recorded: recorded))
        }
        let exchange = try await conversations.send(
            message, tone: tone, lang: lang, attachments: attachments, to: sessionId, by: context.userId, eventId: eventId
        )
        try await readYourWrites.wait(for: exchange.result.position)
        return MessageJSON(
            id: exchange.reply.messageId, role: "assistant", content: exchange.reply.content ?? "",
            microseconds: ChatTime.microseconds(exchange.result.recordedAt), sessionId: exchange.reply.sessionId
        )
    }

    /// Every file checked first, then each stored (synced, and in the shared log when there is one)
    /// before the message naming it is recorded. Under an `Idempotency-Key` already `recorded`, none
    /// is stored again: the same request's files are, and another request is refused.
    private func store(_ uploads: [FormFields.File], owner: Int64, recorded: Bool) async throws -> [Attachment] {
        guard uploads.count <= AttachmentRules.maximumFiles else {
            throw ChatAPIError.invalid("files[]", "holds more than \(AttachmentRules.maximumFiles) files")
        }
        let files = files
        let attachments = try await BlockingWork.run {
            let checked = try uploads.map { upload in
                (upload, try AttachmentRules.validated(name: upload.name, contentType: upload.contentType, contents: upload.contents))
            }
            return try checked.map { upload, contentType in
                let stored = recorded ? SealedFiles.address(of: Data(upload.contents)) : try files.store(Data(upload.contents), owner: owner)
                return Attachment(sha256: stored.sha256, name: upload.name, contentType: contentType, size: stored.size)
            }
        }
        for attachment in attachments where !recorded {
            try await files.share(attachment.sha256, owner: owner)
        }
        return attachments
    }
}
