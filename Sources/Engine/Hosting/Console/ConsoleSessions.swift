import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers

/// The console's signed-in operators: a session per sign-in with the operator token, held in this
/// process (a restart, or another node, asks to sign in again), each with its own CSRF token, ending
/// `lifetime` after it began or at sign-out.
final class ConsoleSessions: Sendable {
    struct Session: Sendable {
        let csrf: String
        let expires: Date
    }

    static let cookie = "console_session"
    /// Before sign-in: the form's CSRF token, sent back as this cookie too (a double submit).
    static let signInCookie = "console_sign_in"
    static let path = "/admin/console"

    let lifetime: TimeInterval
    private let tokenDigest: SHA256.Digest
    private let sessions = NIOLockedValueBox<[String: Session]>([:])

    init(token: String, lifetime: TimeInterval = 8 * 3600) {
        tokenDigest = SHA256.hash(data: Data(token.utf8))
        self.lifetime = lifetime
    }

    /// A new session when `token` is the operator's (compared through SHA-256, as `X-Admin-Token` is).
    func signIn(with token: String, now: Date = Date()) -> (id: String, session: Session)? {
        guard SHA256.hash(data: Data(token.utf8)) == tokenDigest else { return nil }
        let id = Self.randomToken()
        let session = Session(csrf: Self.randomToken(), expires: now.addingTimeInterval(lifetime))
        sessions.withLockedValue { sessions in
            sessions = sessions.filter { $0.value.expires > now }
            sessions[id] = session
        }
        return (id, session)
    }

    func session(for request: Request, now: Date = Date()) -> (id: String, session: Session)? {
        guard let id = request.cookies[Self.cookie]?.value else { return nil }
        return sessions.withLockedValue { sessions in
            guard let session = sessions[id] else { return nil }
            guard session.expires > now else {
                sessions[id] = nil
                return nil
            }
            return (id, session)
        }
    }

    func signOut(_ id: String) {
        _ = sessions.withLockedValue { $0.removeValue(forKey: id) }
    }

    /// The `Set-Cookie` value: only this path, no script, no other site; `Secure` when the request
    /// came over TLS to the proxy in front.
    static func cookie(_ name: String, _ value: String, maxAge: Int, request: Request) -> String {
        let overTLS = forwardedProto.map { request.headers[values: $0].contains { $0.lowercased() == "https" } } ?? false
        let secure = overTLS ? "; Secure" : ""
        return "\(name)=\(value); Path=\(path); Max-Age=\(maxAge); HttpOnly; SameSite=Strict\(secure)"
    }

    private static let forwardedProto = HTTPField.Name("X-Forwarded-Proto")

    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%016llx", generator.next() as UInt64) }.joined()
    }

    /// Equal without saying, by how long it took, how much of `given` was right.
    static func same(_ given: String?, _ expected: String) -> Bool {
        guard let given else { return false }
        return SHA256.hash(data: Data(given.utf8)) == SHA256.hash(data: Data(expected.utf8))
    }
}
