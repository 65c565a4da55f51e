import AppleSignIn
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOConcurrencyHelpers
import NIOCore
import TestSupport
import Testing

/// Apple's key set out of reach: a sign-in is 503 with `Retry-After` in Savry's shape (it was 500),
/// and keys loaded before still verify while a refresh fails.
@Suite(.timeLimit(.minutes(3))) struct AppleKeysUnavailableTests {
    @Test func aSignInWhileAppleKeysCannotBeLoadedIs503AndRecordsNothing() async throws {
        let directory = try TemporaryDirectory()
        let apple = try await FakeApple(directory: directory.url)
        let nobodyListens = try #require(URL(string: "http://127.0.0.1:9/keys"))
        try await SavryLiveServer.run(devLoginEnabled: false, appleJWKS: nobodyListens) { server in
            let head = server.storage.log.headPosition
            for _ in 0..<2 {
                let reply = try await server.client.send(.post, "/api/app/auth", body: #"{"identityToken":"\#(try await apple.token(subject: "001.abc"))"}"#)
                #expect(reply.status == .serviceUnavailable && reply.isErrorShape && reply.headers[.retryAfter] == "5", "\(reply.status) \(reply.text)")
            }
            #expect(server.storage.log.headPosition == head)
        }
    }

    @Test func keysLoadedBeforeStillVerifyWhileARefreshFails() async throws {
        let directory = try TemporaryDirectory()
        let apple = try await FakeApple(directory: directory.url)
        let keySet = try String(contentsOf: apple.jwksFile, encoding: .utf8)
        let answering = NIOLockedValueBox(true)
        let router = Router()
        router.get("/keys") { _, _ -> Response in
            guard answering.withLockedValue({ $0 }) else { return Response(status: .serviceUnavailable) }
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: keySet)))
        }
        try await serve(Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))) { port in
            let keys = try #require(URL(string: "http://127.0.0.1:\(port)/keys"))
            let verifier = AppleIdentityVerifier(source: .url(keys), bundleId: FakeApple.bundleId, refreshInterval: .zero)
            #expect(try await verifier.verify(try await apple.token(subject: "001.abc"))?.subject == "001.abc")
            answering.withLockedValue { $0 = false }
            #expect(try await verifier.verify(try await apple.token(subject: "001.abc"))?.subject == "001.abc")
            let fresh = AppleIdentityVerifier(source: .url(keys), bundleId: FakeApple.bundleId)
            await #expect(throws: AppleKeysUnavailable.self) { try await fresh.verify(try await apple.token(subject: "001.abc")) }

            // Not for good: past the limit, a key Apple may have withdrawn is no longer trusted.
            answering.withLockedValue { $0 = true }
            let limited = AppleIdentityVerifier(source: .url(keys), bundleId: FakeApple.bundleId, refreshInterval: .zero, staleKeysLimit: .milliseconds(300))
            #expect(try await limited.verify(try await apple.token(subject: "001.abc"))?.subject == "001.abc")
            answering.withLockedValue { $0 = false }
            #expect(try await limited.verify(try await apple.token(subject: "001.abc"))?.subject == "001.abc")
            try await Task.sleep(for: .milliseconds(400))
            await #expect(throws: AppleKeysUnavailable.self) { try await limited.verify(try await apple.token(subject: "001.abc")) }
        }
    }

    /// Apple publishes a new key before it signs with it: the first token naming it has the keys
    /// loaded again at once, not at the hourly refresh; tokens naming made-up keys, once a minute.
    @Test func aKeyPublishedSinceTheKeysWereLoadedVerifiesItsFirstToken() async throws {
        let directory = try TemporaryDirectory()
        let (apple, rotated) = (try await FakeApple(directory: directory.url), try await FakeApple(directory: directory.url, kid: "next-key"))
        let published = NIOLockedValueBox((jwks: try String(contentsOf: apple.jwksFile, encoding: .utf8), fetches: 0))
        let router = Router()
        router.get("/keys") { _, _ -> Response in
            let jwks = published.withLockedValue { $0.fetches += 1; return $0.jwks }
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: jwks)))
        }
        try await serve(Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))) { port in
            let verifier = AppleIdentityVerifier(source: .url(try #require(URL(string: "http://127.0.0.1:\(port)/keys"))), bundleId: FakeApple.bundleId)
            #expect(try await verifier.verify(try await apple.token(subject: "001.abc"))?.subject == "001.abc")
            let rotatedJWKS = try String(contentsOf: rotated.jwksFile, encoding: .utf8)
            published.withLockedValue { $0.jwks = rotatedJWKS }
            #expect(try await verifier.verify(try await rotated.token(subject: "001.abc"))?.subject == "001.abc")
            #expect(published.withLockedValue { $0.fetches } == 2)

            let madeUp = try await FakeApple(directory: directory.url, kid: "made-up")
            for _ in 0..<3 { #expect(try await verifier.verify(try await madeUp.token(subject: "001.abc")) == nil) }
            #expect(published.withLockedValue { $0.fetches } == 2, "the rotation's reload was under a minute ago")
        }
    }
}
