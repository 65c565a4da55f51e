import AppleSignIn
import Foundation
import JWTKit
import SavryDomain
import TestSupport
import Testing

/// A Sign in with Apple stand-in: our own ES256 key, published as a JWKS file, signing real tokens.
struct FakeApple {
    static let bundleId = "app.savry.ios"
    let keys: JWTKeyCollection
    let jwksFile: URL
    let kid: JWKIdentifier

    init(directory: URL, kid: String = "test-key") async throws {
        let key = ES256PrivateKey()
        let parameters = try #require(key.publicKey.parameters)
        let jwks = #"{"keys":[{"kty":"EC","crv":"P-256","use":"sig","alg":"ES256","kid":"\#(kid)","x":"\#(parameters.x)","y":"\#(parameters.y)"}]}"#
        jwksFile = directory.appendingPathComponent(kid == "test-key" ? "apple-jwks.json" : "apple-jwks-\(kid).json")
        try Data(jwks.utf8).write(to: jwksFile)
        self.kid = JWKIdentifier(string: kid)
        keys = await JWTKeyCollection().add(ecdsa: key, kid: self.kid)
    }

    func token(subject: String, audience: String = bundleId, expiresIn: TimeInterval = 300) async throws -> String {
        let now = Date()
        return try await keys.sign(AppleIdentityToken(
            issuer: .init(value: "https://appleid.apple.com"), audience: .init(value: [audience]), expires: .init(value: now.addingTimeInterval(expiresIn)),
            issuedAt: .init(value: now.addingTimeInterval(-10)), subject: .init(value: subject)
        ), kid: kid)
    }
}

@Suite(.timeLimit(.minutes(3))) struct SignInTests {
    @Test func anAppleIdentityIsOneUserAndBadTokensAre401() async throws {
        let directory = try TemporaryDirectory()
        let apple = try await FakeApple(directory: directory.url)
        try await SavryLiveServer.run(devLoginEnabled: false, appleJWKS: apple.jwksFile) { server in
            let client = server.client
            let first = try await client.send(.post, "/api/app/auth", body: #"{"identityToken":"\#(try await apple.token(subject: "001.abc"))"}"#)
            #expect(first.status == .ok && Set(first.json.keys) == ["token"])
            let again = try await client.send(.post, "/api/app/auth", body: #"{"identityToken":"\#(try await apple.token(subject: "001.abc"))"}"#)
            let head = server.storage.log.headPosition
            for reply in [first, again] {
                let token = try #require(reply.json["token"] as? String)
                #expect(try await server.tokens.grant(from: token)?.userId == 1)
            }
            for bad in [try await apple.token(subject: "x", audience: "com.someone.else"), try await apple.token(subject: "x", expiresIn: -60), "not-a-jwt"] {
                let reply = try await client.send(.post, "/api/app/auth", body: #"{"identityToken":"\#(bad)"}"#)
                #expect(reply.status == .unauthorized && reply.isErrorShape, "\(reply.text)")
            }
            for body in [#"{"devUser":"ana"}"#, "{}", #"{"identityToken":null}"#, #"{"identityToken":5}"#] {
                let reply = try await client.send(.post, "/api/app/auth", body: body)
                #expect(reply.status == .badRequest && reply.isErrorShape, "\(body): \(reply.text)")
            }
            #expect(server.storage.log.headPosition == head)
        }
    }

    @Test func aDevUserIsRegisteredOnFirstUseAndExactlyOneCredentialIsSent() async throws {
        try await SavryLiveServer.run { server in
            let client = server.client
            let ana = try await client.token("ana")
            let anaAgain = try await client.token("ana")
            let ben = try await client.token("ben")
            let users = [try await server.tokens.grant(from: ana)?.userId, try await server.tokens.grant(from: anaAgain)?.userId, try await server.tokens.grant(from: ben)?.userId]
            #expect(users == [1, 1, 2])
            #expect(try server.storage.events(after: 0).count == 4)
            for body in [#"{"devUser":"ana","identityToken":"x"}"#, "{}", #"{"devUser":""}"#, #"{"devUser":"a b"}"#, #"{"identityToken":"x"}"#, #"{"user":"ana"}"#] {
                let reply = try await client.send(.post, "/api/app/auth", body: body)
                #expect(reply.status == .badRequest && reply.isErrorShape, "\(body): \(reply.text)")
            }
        }
    }
}
