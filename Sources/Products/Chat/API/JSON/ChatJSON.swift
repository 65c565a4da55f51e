import ChatDomain
import ChatProjections
import Foundation
import HTTPServing
import Hummingbird

/// Instants as the Django app writes them (`datetime.isoformat()` of an aware UTC time):
/// `2026-01-07T12:00:00.123456+00:00`, always with six fraction digits.
enum DjangoTime {
    static func format(microseconds: Int64) -> String {
        UTCTimestamp.format(microseconds, unitsPerSecond: 1_000_000, suffix: "+00:00")
    }

    static func format(_ date: Date) -> String {
        format(microseconds: ChatTime.microseconds(date))
    }
}

/// `user_payload(user)`: the account as the Django app shows it.
struct AccountJSON: Encodable {
    let id: Int64
    let username: String
    let email: String
    let first_name: String
    let last_name: String
    let date_joined: String
    @Nullable var last_login: String?

    init(_ account: AccountState.Registered) {
        id = account.userId
        username = account.profile.username
        email = account.email
        first_name = account.profile.firstName
        last_name = account.profile.lastName
        date_joined = DjangoTime.format(account.dateJoined)
        last_login = account.lastLogin.map(DjangoTime.format)
    }
}

/// `user_payload(user)` and the token: what login and signup answer, the account's fields and
/// `token` in one object.
struct UserPayload: ResponseEncodable {
    let account: AccountJSON
    let token: String

    init(_ account: AccountState.Registered, token: String) {
        self.account = AccountJSON(account)
        self.token = token
    }

    func encode(to encoder: any Encoder) throws {
        try account.encode(to: encoder)
        var container = encoder.container(keyedBy: TokenKey.self)
        try container.encode(token, forKey: .token)
    }

    private enum TokenKey: String, CodingKey { case token }
}

/// A message as the iOS app's `ChatMessageResponse` decodes it.
struct MessageJSON: ResponseEncodable {
    let id: String
    let role: String
    let content: String
    let timestamp: String
    let session_id: Int64
    @Nullable var metadata: String?

    init(id: String, role: String, content: String, microseconds: Int64, sessionId: Int64) {
        self.id = id
        self.role = role
        self.content = content
        timestamp = DjangoTime.format(microseconds: microseconds)
        session_id = sessionId
        metadata = nil
    }
}

/// A session with its messages, as `GET /api/chat/sessions/` lists them.
struct SessionJSON: ResponseEncodable {
    let id: Int64
    let title: String
    let created_at: String
    let updated_at: String
    let tone: String
    let lang: String
    let messages: [MessageJSON]

    init(_ session: StoredSession) {
        id = session.sessionId
        title = session.title
        created_at = DjangoTime.format(microseconds: session.createdAt)
        updated_at = DjangoTime.format(microseconds: session.updatedAt)
        tone = session.tone
        lang = session.lang
        messages = session.messages.map { message in
            MessageJSON(id: message.messageId, role: message.role, content: message.content, microseconds: message.timestamp, sessionId: session.sessionId)
        }
    }
}

/// `POST /api/chat/sessions/new/`'s answer: the tone as it was sent, the language as `language`.
struct CreatedSessionJSON: ResponseEncodable {
    let id: Int64
    let title: String
    let created_at: String
    let tone: String
    let language: String
}

/// A bare JSON array, as DRF's `Response(list)` answers.
struct SessionListJSON: ResponseGenerator {
    let sessions: [SessionJSON]

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: try ChatContract.responseEncoder().encode(sessions))))
    }
}

/// The chat product's documents for tools outside a request (`chat as-of`).
public enum ChatDocuments {
    /// Sessions as `GET /api/chat/sessions/` lists them, pretty-printed.
    public static func sessions(_ sessions: [StoredSession]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(sessions.map(SessionJSON.init))
    }
}
