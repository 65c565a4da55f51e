import NuvieAPI
import NuvieApp
import Foundation
import TestSupport
import JWTKit
import Testing

/// A Sign in with Apple stand-in: our own ES256 key, published as a JWKS file, signing real tokens.
struct FakeApple {
    let key: ES256PrivateKey
    let keys: JWTKeyCollection
    let jwksFile: URL

    init(directory: URL) async throws {
        key = ES256PrivateKey()
        let parameters = try #require(key.publicKey.parameters)
        let jwks = #"{"keys":[{"kty":"EC","crv":"P-256","use":"sig","alg":"ES256","kid":"test-key","x":"\#(parameters.x)","y":"\#(parameters.y)"}]}"#
        jwksFile = directory.appendingPathComponent("apple-jwks.json")
        try Data(jwks.utf8).write(to: jwksFile)
        keys = await JWTKeyCollection().add(ecdsa: key, kid: "test-key")
    }

    func token(subject: String, audience: String = "app.nuvie.ios", issuer: String = "https://appleid.apple.com", expiresIn: TimeInterval = 300) async throws -> String {
        let now = Date()
        let claims = AppleIdentityToken(
            issuer: .init(value: issuer), audience: .init(value: [audience]), expires: .init(value: now.addingTimeInterval(expiresIn)),
            issuedAt: .init(value: now.addingTimeInterval(-10)), subject: .init(value: subject), email: "\(subject)@privaterelay.appleid.com"
        )
        return try await keys.sign(claims, kid: "test-key")
    }
}

/// A live server that accepts `FakeApple`'s tokens for the bundle `app.nuvie.ios`.
func withAppleSignIn(_ body: @Sendable (FakeApple, LiveClient) async throws -> Void) async throws {
    let keysDirectory = try TemporaryDirectory()
    let apple = try await FakeApple(directory: keysDirectory.url)
    try await withLiveServer({ configuration in
        configuration.appleBundleId = "app.nuvie.ios"
        configuration.appleKeySource = .file(apple.jwksFile)
    }) { client in try await body(apple, client) }
}

@Suite(.timeLimit(.minutes(3))) struct AuthTests {
    @Test func signInWithAppleRegistersOnceAndVerifiesEverything() async throws {
        try await withAppleSignIn { apple, client in
            let token = try await apple.token(subject: "001234.abcdef")
            let first = try await client.send(.post, "/auth/login", body: #"{"provider":"apple","token":"\#(token)","user_identifier":"001234.abcdef","name":"Alex Johnson"}"#)
            #expect(first.status == .ok)
            let user = try #require(first.json["user"] as? [String: Any])
            #expect(user["user_id"] as? Int == 4)
            #expect(user["name"] as? String == "Alex Johnson")
            #expect(user["email"] as? String == "001234.abcdef@privaterelay.appleid.com")
            let head = try await client.headPosition()

            let again = try await client.send(.post, "/auth/login", body: #"{"provider":"apple","token":"\#(try await apple.token(subject: "001234.abcdef"))"}"#)
            #expect((again.json["user"] as? [String: Any])?["user_id"] as? Int == 4)
            #expect(try await client.headPosition() == head + 1, "signing in again registers nobody: it starts a session")

            let other = FakeAppleOtherKey.self
            for bad in [
                try await apple.token(subject: "x", audience: "com.someone.else"),
                try await apple.token(subject: "x", issuer: "https://evil.example"),
                try await apple.token(subject: "x", expiresIn: -60),
                try await other.token(),
                "not-a-jwt",
            ] {
                let reply = try await client.send(.post, "/auth/login", body: #"{"provider":"apple","token":"\#(bad)"}"#)
                #expect(reply.status == .unauthorized)
                #expect(reply.errorCode == "AUTHENTICATION_REQUIRED")
            }
            #expect(try await client.headPosition() == head + 1)
        }
    }

    @Test func devProviderRegistersNewIdentifiersAndIsOffOutsideDemoMode() async throws {
        try await withLiveServer { client in
            let first = try await client.send(.post, "/auth/login", body: #"{"provider":"dev","token":"","user_identifier":"alice","name":"Alice"}"#)
            #expect((first.json["user"] as? [String: Any])?["user_id"] as? Int == 4)
            let second = try await client.send(.post, "/auth/login", body: #"{"provider":"dev","token":"","user_identifier":"alice"}"#)
            #expect((second.json["user"] as? [String: Any])?["user_id"] as? Int == 4)
            #expect(try await client.send(.post, "/auth/login", body: #"{"provider":"dev","user_identifier":"movielens-99"}"#).errorCode == "USER_NOT_FOUND")
            // A blank identifier registered a user named by three spaces.
            let head = try await client.headPosition()
            for blank in ["", "   ", "\\u200b", "\\ufeff"] {
                let refused = try await client.send(.post, "/auth/login", body: #"{"provider":"dev","user_identifier":"\#(blank)"}"#)
                #expect(refused.status == .badRequest && refused.errorCode == "VALIDATION_ERROR", "\(refused.text)")
            }
            #expect(try await client.headPosition() == head)
            #expect(try await client.send(.post, "/auth/login", body: #"{"provider":"facebook"}"#).errorCode == "VALIDATION_ERROR")
            #expect(try await client.send(.post, "/auth/login", body: #"{"provider":"apple","token":"x"}"#).status == .badRequest)
        }
        try await withLiveServer({ $0.demoMode = false }) { client in
            let reply = try await client.send(.post, "/auth/login", body: #"{"provider":"dev","user_identifier":"movielens-1"}"#)
            #expect(reply.status == .badRequest)
        }
    }

    @Test func tokensAreCheckedAndRefreshed() async throws {
        try await withLiveServer { client in
            #expect(try await client.send(.get, "/movies/1").errorCode == "AUTHENTICATION_REQUIRED")
            #expect(try await client.send(.get, "/movies/1", token: "garbage").status == .unauthorized)
            let expired = try await NuvieTokens(secret: "test-secret-test-secret-test-secret", isLive: { _, _ in true }).issue(for: 1, sessionId: UUID(), refreshTokenId: UUID(), authenticatedAt: Date(), now: Date().addingTimeInterval(-90_000))
            #expect(try await client.send(.get, "/movies/1", token: expired.accessToken).status == .unauthorized)
            let forged = try await NuvieTokens(secret: "another-secret-another-secret-another", isLive: { _, _ in true }).issue(for: 1, sessionId: UUID(), refreshTokenId: UUID(), authenticatedAt: Date())
            #expect(try await client.send(.get, "/movies/1", token: forged.accessToken).status == .unauthorized)

            let login = try await client.send(.post, "/auth/login", body: #"{"provider":"dev","user_identifier":"movielens-3"}"#)
            let refreshToken = try #require(login.json["refresh_token"] as? String)
            let accessToken = try #require(login.json["access_token"] as? String)
            #expect(login.json["expires_in"] as? Int == 86400)
            #expect(try await client.send(.get, "/movies/1", token: refreshToken).status == .unauthorized)

            let refreshed = try await client.send(.post, "/auth/refresh", body: #"{"refresh_token":"\#(refreshToken)"}"#)
            #expect(refreshed.status == .ok)
            #expect((refreshed.json["user"] as? [String: Any])?["user_id"] as? Int == 3)
            let newAccess = try #require(refreshed.json["access_token"] as? String)
            #expect(try await client.send(.get, "/movies/1", token: newAccess).status == .ok)
            for accepted in ["bearer \(newAccess)", "BEARER   \(newAccess)\t ", "Bearer \t\(newAccess)"] {
                #expect(try await client.send(.get, "/movies/1", headers: [.authorization: accepted]).status == .ok, "\(accepted)")
            }
            for refused in ["Bearer", "Bearer ", "Bearer  \t ", "Bearerx \(newAccess)", "Basic \(newAccess)", "Bearer \(newAccess)x", newAccess] {
                #expect(try await client.send(.get, "/movies/1", headers: [.authorization: refused]).errorCode == "AUTHENTICATION_REQUIRED", "\(refused)")
            }
            #expect(try await client.send(.post, "/auth/refresh", body: #"{"refresh_token":"\#(accessToken)"}"#).status == .unauthorized)
        }
    }
}

enum FakeAppleOtherKey {
    static func token() async throws -> String {
        let keys = await JWTKeyCollection().add(ecdsa: ES256PrivateKey(), kid: "test-key")
        let now = Date()
        return try await keys.sign(AppleIdentityToken(
            issuer: .init(value: "https://appleid.apple.com"), audience: .init(value: ["app.nuvie.ios"]),
            expires: .init(value: now.addingTimeInterval(300)), issuedAt: .init(value: now), subject: .init(value: "x")
        ), kid: "test-key")
    }
}
