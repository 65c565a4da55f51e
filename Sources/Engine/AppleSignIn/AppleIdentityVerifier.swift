import AsyncHTTPClient
import Foundation
import JWTKit
import Logging
import Metrics
import NIOCore

/// Verifies Sign in with Apple identity tokens: the header names a key of Apple's JWKS and its
/// algorithm, the signature verifies with that key, issuer `https://appleid.apple.com`, audience =
/// the app's bundle id, not expired, not used before its `nbf` or `iat`.
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
    /// How long keys loaded once go on verifying while every refresh fails: long enough to ride out an
    /// outage of Apple's endpoint or of this server's way out, not so long that a key Apple withdrew
    /// (rotated out after a compromise) is trusted for good by a server that cannot hear of it.
    private let staleKeysLimit: Duration
    private var keys: (collection: JWTKeyCollection, header: JWTHeaderCheck, loadedAt: ContinuousClock.Instant)?
    private var failure: (error: AppleKeysUnavailable, at: ContinuousClock.Instant)?
    /// When a token last sent the keys to be loaded again by naming one they lack.
    private var unknownKeyReload: ContinuousClock.Instant?
    private let logger = Logger(label: "engine.apple-sign-in")
    private let loadFailures = Counter(label: "engine_apple_keys_load_failures_total")
    static let fetchTimeout: TimeAmount = .seconds(5)
    static let failureMemory: Duration = .seconds(5)
    /// How often tokens naming a key not loaded may have the keys loaded again: Apple publishes a
    /// new key before it signs with it, so the first sign-in with it finds it, while tokens naming
    /// made-up keys cost at most one fetch a minute.
    static let unknownKeyReloadInterval: Duration = .seconds(60)

    /// The verifier of a product configured for Sign in with Apple (both settings given), else nil.
    public init?(bundleId: String?, source: KeySource?) {
        guard let bundleId, let source else { return nil }
        self.init(source: source, bundleId: bundleId)
    }

    public init(source: KeySource, bundleId: String, refreshInterval: Duration = .seconds(3600), staleKeysLimit: Duration = .seconds(86_400)) {
        self.source = source
        self.bundleId = bundleId
        self.refreshInterval = refreshInterval
        self.staleKeysLimit = staleKeysLimit
    }

    /// The verified identity, or nil for any token that is not a valid Apple token for this app.
    public func verify(_ token: String) async throws -> Identity? {
        var keys = try await currentKeys()
        if keys.header.namesUnknownKey(token), unknownKeyReload.map({ $0.duration(to: .now) >= Self.unknownKeyReloadInterval }) ?? true {
            unknownKeyReload = .now
            keys = try await currentKeys(reloading: true)
        }
        guard keys.header.accepts(token),
              let claims = try? await keys.collection.verify(token, as: AppleIdentityClaims.self),
              (try? claims.aud.verifyIntendedAudience(includes: bundleId)) != nil
        else { return nil }
        return Identity(subject: claims.sub.value, email: claims.email)
    }

    /// The keys last loaded while they are fresh, unless `reloading`; else loaded again. When that fails, the keys last
    /// loaded still verify (Apple rotates them rarely) up to `staleKeysLimit` after they were loaded, and
    /// without any the failure is thrown, the same for `failureMemory` so that each sign-in does not ask again.
    private func currentKeys(reloading: Bool = false) async throws -> (collection: JWTKeyCollection, header: JWTHeaderCheck) {
        if !reloading, let keys, keys.loadedAt.duration(to: .now) < refreshInterval { return (keys.collection, keys.header) }
        if let failure, failure.at.duration(to: .now) < Self.failureMemory {
            if let keys = stillUsableKeys { return keys }
            throw failure.error
        }
        do {
            let (collection, header) = try await loadKeys()
            keys = (collection, header, .now)
            if failure != nil { logger.notice("Apple's signing keys loaded again: Sign in with Apple verifies with them") }
            failure = nil
            return (collection, header)
        } catch let error as AppleKeysUnavailable {
            loadFailures.increment()
            // Once an outage, not at every retry: an operator otherwise learns of it from users.
            if failure == nil {
                logger.error("Apple's signing keys could not be loaded", metadata: [
                    "reason": "\(error.reason)", "source": "\(source)",
                    "meanwhile": "\(stillUsableKeys == nil ? "every Sign in with Apple answers 503" : "the keys loaded before still verify, for up to a day")",
                ])
            }
            failure = (error, .now)
            if let keys = stillUsableKeys { return keys }
            throw error
        }
    }

    private var stillUsableKeys: (collection: JWTKeyCollection, header: JWTHeaderCheck)? {
        guard let keys, keys.loadedAt.duration(to: .now) < staleKeysLimit else { return nil }
        return (keys.collection, keys.header)
    }

    private func loadKeys() async throws -> (JWTKeyCollection, JWTHeaderCheck) {
        let json: String
        do {
            json = try await loadJWKS()
        } catch let error as AppleKeysUnavailable {
            throw error
        } catch {
            throw AppleKeysUnavailable(reason: "\(error)")
        }
        do {
            let jwks = try JSONDecoder().decode(JWKS.self, from: Data(json.utf8))
            return (try await JWTKeyCollection().add(jwks: jwks), JWTHeaderCheck.keys(of: jwks))
        } catch {
            throw AppleKeysUnavailable(reason: "not a key set: \(error)")
        }
    }

    private func loadJWKS() async throws -> String {
        switch source {
        case .file(let url):
            return try String(contentsOf: url, encoding: .utf8)
        case .url(let url):
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url.absoluteString), timeout: Self.fetchTimeout)
            guard response.status == .ok else { throw AppleKeysUnavailable(reason: "answered HTTP \(response.status.code)") }
            do {
                return String(buffer: try await response.body.collect(upTo: 1 << 20))
            } catch is NIOTooManyBytesError {
                // Apple's keys, not the request, are too large: not the client's 413.
                throw AppleKeysUnavailable(reason: "answered more than 1 MB")
            }
        }
    }
}

/// Apple's signing keys could not be loaded, and none loaded before would do: no identity token can
/// be checked until they can (the engine answers 503).
public struct AppleKeysUnavailable: Error, CustomStringConvertible {
    public var reason: String

    public var description: String { "Apple's signing keys could not be loaded: \(reason)" }
}

/// The claims of an Apple identity token this backend relies on.
struct AppleIdentityClaims: JWTPayload {
    static let issuer = "https://appleid.apple.com"
    /// Clock skew tolerated between Apple and this server.
    static let leeway: TimeInterval = 60

    var iss: IssuerClaim
    var aud: AudienceClaim
    var sub: SubjectClaim
    var exp: ExpirationClaim
    var iat: IssuedAtClaim
    var nbf: NotBeforeClaim?
    var email: String?

    func verify(using _: some JWTAlgorithm) throws {
        guard iss.value == Self.issuer else { throw JWTError.claimVerificationFailure(failedClaim: iss, reason: "not issued by Apple") }
        let now = Date()
        try exp.verifyNotExpired(currentDate: now)
        try nbf?.verifyNotBefore(currentDate: now.addingTimeInterval(Self.leeway))
        guard iat.value <= now.addingTimeInterval(Self.leeway) else {
            throw JWTError.claimVerificationFailure(failedClaim: iat, reason: "issued in the future")
        }
    }
}
