import Foundation
import HTTPServing

/// Savry's requests: the engine's contexts, with the token `SavryAuthMiddleware` found.
public enum SavryContract: RequestContract {
    public typealias Grant = SavryTokens.Grant
    /// A recipe at every cap (`RecipeRules`) fits, with room for multi-byte text.
    public static let maximumBodySize = 512 * 1024
    public static func responseEncoder() -> JSONEncoder { SavryJSON.encoder() }
    public static func signInRequired() -> any Error { SavryAPIError.unauthorized("Sign in to use this endpoint") }
}

extension SavryTokens.Grant: UserGrant {}

public typealias SavryRequestContext = ProductRequestContext<SavryContract>
public typealias SavrySignedInContext = SignedInRequestContext<SavryContract>
