import Foundation
import HTTPServing

/// Nuvie's requests: the engine's contexts, with the session `NuvieAuthMiddleware` found; signed-in routes
/// reached without one answer 401 `AUTHENTICATION_REQUIRED`.
public enum NuvieContract: RequestContract {
    public typealias Grant = NuvieTokens.Grant
    /// Request bodies are JSON of at most 64 KiB.
    public static let maximumBodySize = 64 * 1024
    public static func responseEncoder() -> JSONEncoder { NuvieJSON.encoder() }
    public static func requestDecoder() -> JSONDecoder { NuvieJSON.decoder() }
    public static func signInRequired() -> any Error { NuvieAPIError.authenticationRequired("Sign in to use this endpoint") }
}

extension NuvieTokens.Grant: UserGrant {}

public typealias NuvieRequestContext = ProductRequestContext<NuvieContract>
public typealias NuvieSignedInContext = SignedInRequestContext<NuvieContract>
