import ChatDomain
import EventLog
import EventSourcing
import Foundation

/// The demo's accounts, each with a short conversation, documented in README:
/// `demo@example.com` / `demo-password-1` and `caregiver@example.com` / `demo-password-2`. Seeding is
/// idempotent: an address that has an account (or had one, since erased) is not seeded again.
public enum ChatDemoSeed {
    struct DemoAccount {
        var email, password, username, firstName, lastName: String
        var sessions: [(title: String, tone: String, exchanges: [(message: String, reply: String)])]
    }

    static let accounts = [
        DemoAccount(
            email: "demo@example.com", password: "demo-password-1", username: "demo", firstName: "Dana", lastName: "Demo",
            sessions: [(title: "Health Check Discussion", tone: "plain_clinical", exchanges: [(
                message: "What are the symptoms of diabetes?",
                reply: "Common symptoms include increased thirst, frequent urination, tiredness and blurred vision. (A seeded demo reply, not a model's.)"
            )])]
        ),
        DemoAccount(
            email: "caregiver@example.com", password: "demo-password-2", username: "carla", firstName: "Carla", lastName: "Care",
            sessions: [(title: "Caring for Mum", tone: "caregiver", exchanges: [(
                message: "How can I help my mother remember her medication?",
                reply: "A weekly pill organiser and a daily alarm at the same time each day help most. (A seeded demo reply, not a model's.)"
            )])]
        ),
    ]

    /// Seeds the demo accounts not seeded before; returns how many events it recorded.
    @discardableResult
    public static func run(into commands: ChatCommandService) async throws -> Int {
        let before = commands.store.log.headPosition
        for account in accounts {
            guard try !commands.store.streamExists(ChatCommandService.identity(account.email).stream) else { continue }
            let userId = try await commands.signUp(
                email: account.email, password: account.password, username: account.username, firstName: account.firstName, lastName: account.lastName
            )
            for session in account.sessions {
                let (sessionId, _) = try await commands.startSession(by: userId, title: session.title, tone: session.tone, lang: ChatRules.defaultLanguage)
                for exchange in session.exchanges {
                    let eventId = UUID.timeOrdered()
                    let sent = try await commands.send(
                        exchange.message, tone: session.tone, lang: ChatRules.defaultLanguage, attachments: [], to: sessionId, by: userId, eventId: eventId
                    )
                    let replyEventId = ChatCommandService.replyEventId(to: eventId)
                    _ = try await commands.recordReply(AssistantReplied(
                        sessionId: sessionId, userId: userId, messageId: ChatCommandService.messageId(replyEventId),
                        inReplyTo: sent.message.messageId,
                        content: exchange.reply, source: ReplySource(provider: "demo-seed", model: "none", latencyMilliseconds: 0, promptTokens: nil, completionTokens: nil)
                    ), as: replyEventId)
                }
            }
        }
        return Int(commands.store.log.headPosition - before)
    }
}
