import ChatAssistant
import ChatDomain
import EventLog
import EventSourcing
import Foundation
import Logging
import PersonalData

/// `send-chat` end to end: the user's message recorded (durably, before anything else), the session's
/// conversation sent to the assistant within the token budget, and its reply recorded, or, when it
/// gave none, the failure recorded and thrown. Either way the message stays.
public struct Conversations: Sendable {
    public let commands: ChatCommandService
    let assistant: any Assistant
    let prompts: TonePrompts
    let budget: ConversationBudget
    let files: SealedFiles
    let logger: Logger

    public init(commands: ChatCommandService, assistant: any Assistant, prompts: TonePrompts, budget: ConversationBudget, files: SealedFiles, logger: Logger) {
        self.commands = commands
        self.assistant = assistant
        self.prompts = prompts
        self.budget = budget
        self.files = files
        self.logger = logger
    }

    public struct Exchange: Sendable {
        public var message: UserMessageSent
        public var reply: AssistantReplied
        public var result: CommandResult
    }

    /// The assistant gave no reply; the message is recorded (at `position`) and so is the failure.
    public struct NoReply: Error, Sendable {
        public var sessionId: Int64
        public var failure: AssistantFailure
        public var position: UInt64
    }

    /// `eventId` names the request (`Idempotency-Key`): a retry records nothing again and, once the
    /// reply is recorded, answers it without asking the assistant again.
    public func send(
        _ text: String, tone: String, lang: String, attachments: [Attachment], to sessionId: Int64?, by userId: Int64, eventId: UUID = .timeOrdered()
    ) async throws -> Exchange {
        let sent = try await commands.send(text, tone: tone, lang: lang, attachments: attachments, to: sessionId, by: userId, eventId: eventId)
        let message = sent.message
        let replyEventId = ChatCommandService.replyEventId(to: eventId)
        if let recorded = try commands.recordedReply(replyEventId) { return Exchange(message: message, reply: recorded.reply, result: recorded.result) }
        var history: [ChatTurn] = []
        // Up to the message: a retry after later messages asks about this one, not the newest.
        let turns = try commands.conversation(message.sessionId).turns
        let upToMessage = turns.lastIndex { $0.role == .user && $0.messageId == message.messageId }.map { turns[...$0] } ?? turns[...]
        for turn in upToMessage {
            history.append(ChatTurn(role: turn.role == .user ? .user : .assistant, content: await withFiles(turn, owner: userId)))
        }
        let conversation = budget.fit(system: prompts.prompt(for: message.tone, language: message.lang), turns: history)
        let started = ContinuousClock.now
        do {
            let answer = try await assistant.answer(conversation)
            let reply = AssistantReplied(
                sessionId: message.sessionId, userId: userId, messageId: ChatCommandService.messageId(replyEventId),
                inReplyTo: message.messageId,
                content: StorableText.replacingRefused(in: answer.content), source: ReplySource(
                    provider: assistant.provider, model: answer.model, latencyMilliseconds: Self.milliseconds(since: started),
                    promptTokens: answer.promptTokens, completionTokens: answer.completionTokens
                )
            )
            do {
                return Exchange(message: message, reply: reply, result: try await commands.recordReply(reply, as: replyEventId))
            } catch EventLogError.eventIdReused {
                // The same request, retried while this one waited for the assistant, recorded its reply first.
                guard let recorded = try commands.recordedReply(replyEventId) else { throw CommandError.tooMuchContention }
                return Exchange(message: message, reply: recorded.reply, result: recorded.result)
            }
        } catch let failure as AssistantFailure {
            logger.warning("the assistant gave no reply", metadata: [
                "provider": "\(assistant.provider)", "model": "\(assistant.model)", "failure": "\(failure)", "session.id": "\(message.sessionId)",
            ])
            let recorded = try await commands.recordFailure(AssistantFailed(
                sessionId: message.sessionId, userId: userId, inReplyTo: message.messageId, provider: assistant.provider, model: assistant.model,
                latencyMilliseconds: Self.milliseconds(since: started), failure: failure.description
            ))
            throw NoReply(sessionId: message.sessionId, failure: failure, position: recorded.position)
        }
    }

    /// A turn as the model reads it: text files inline (up to 20,000 characters each), others named.
    private func withFiles(_ turn: SessionState.Turn, owner: Int64) async -> String {
        var text = turn.content
        for file in turn.attachments {
            if AttachmentRules.isText(file.contentType), let data = await readable(file, owner: owner) {
                text += "\n\n[Attached file \"\(file.name)\"]\n" + String(decoding: data, as: UTF8.self).prefix(20_000)
            } else {
                text += "\n\n[Attached file \"\(file.name)\" (\(file.contentType), \(file.size) bytes): not readable as text]"
            }
        }
        return text
    }

    /// The file's contents; nil, and a warning naming why, when it cannot be read (its owner erased, or
    /// the shared log not answering): the model is then told only its name.
    private func readable(_ file: Attachment, owner: Int64) async -> Data? {
        let why: String
        do {
            if let data = try await files.contents(file.sha256, owner: owner) { return data }
            why = "no key or no copy"
        } catch {
            why = "\(error)"
        }
        logger.warning("an attached file is not readable", metadata: ["file.sha256": "\(file.sha256)", "owner": "\(owner)", "reason": "\(why)"])
        return nil
    }

    private static func milliseconds(since start: ContinuousClock.Instant) -> Int {
        let elapsed = ContinuousClock.now - start
        return Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
    }
}
