import Foundation
import HTTPServing

/// Nuvie's requests: the engine's contexts, with the session `AuthMiddleware` found; signed-in routes
/// reached without one answer 401 `AUTHENTICATION_REQUIRED`.
public enum NuvieContract: RequestContract {
    public typealias Grant = TokenService.Grant
    /// Request bodies are JSON of at most 64 KiB.
    public static let maximumBodySize = 64 * 1024
    public static func responseEncoder() -> JSONEncoder { ContractJSON.encoder() }
    public static func requestDecoder() -> JSONDecoder { ContractJSON.decoder() }
    public static func signInRequired() -> any Error { NuvieAPIError.authenticationRequired("Sign in to use this endpoint") }
}

extension TokenService.Grant: UserGrant {}

public typealias NuvieRequestContext = ProductRequestContext<NuvieContract>
public typealias NuvieSignedInContext = SignedInRequestContext<NuvieContract>
