import AsyncHTTPClient
import Foundation
import JWTKit
import NIOCore

/// Verifies Sign in with Apple identity tokens: signature against Apple's JWKS, issuer
/// `https://appleid.apple.com`, audience = the app's bundle id, not expired.
public actor AppleIdentityVerifier {
    public enum KeySource: Sendable, Equatable {
        case file(URL)
        case url(URL)
    }

    public struct Identity: Sendable {
        public var subject: String
        public var email: String?
    }

    private let source: KeySource
    private let bundleId: String
    private let refreshInterval: Duration
    private var keys: (collection: JWTKeyCollection, loadedAt: ContinuousClock.Instant)?

    public init(source: KeySource, bundleId: String, refreshInterval: Duration = .seconds(3600)) {
        self.source = source
        self.bundleId = bundleId
        self.refreshInterval = refreshInterval
    }

    /// The verified identity, or nil for any token that is not a valid Apple token for this app.
    public func verify(_ token: String) async throws -> Identity? {
        let keys = try await currentKeys()
        guard let claims = try? await keys.verify(token, as: AppleIdentityToken.self, expectedAudience: bundleId) else { return nil }
        return Identity(subject: claims.subject.value, email: claims.email)
    }

    private func currentKeys() async throws -> JWTKeyCollection {
        if let keys, keys.loadedAt.duration(to: .now) < refreshInterval { return keys.collection }
        let collection = try await JWTKeyCollection().add(jwksJSON: try await loadJWKS())
        keys = (collection, .now)
        return collection
    }

    private func loadJWKS() async throws -> String {
        switch source {
        case .file(let url):
            return try String(contentsOf: url, encoding: .utf8)
        case .url(let url):
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url.absoluteString), timeout: .seconds(10))
            guard response.status == .ok else { throw AppleKeysUnavailable(status: Int(response.status.code)) }
            return String(buffer: try await response.body.collect(upTo: 1 << 20))
        }
    }
}

struct AppleKeysUnavailable: Error {
    var status: Int
}
