import Foundation
import HTTPServing

/// The chat product's requests: the engine's contexts, with the user and token
/// `TokenAuthMiddleware` found.
public enum ChatContract: RequestContract {
    public struct Grant: UserGrant {
        public var userId: Int64
        /// The SHA-256 of the token this request came with: what logout revokes.
        public var tokenHash: String
    }

    /// A message with its most and largest files, and the form around them.
    public static let maximumBodySize = AttachmentLimits.maximumRequestBytes

    /// As Django REST framework writes JSON: `/` unescaped.
    public static func responseEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return encoder
    }

    public static func signInRequired() -> any Error { ChatAPIError.notAuthenticated }
}

public typealias ChatRequestContext = ProductRequestContext<ChatContract>
public typealias ChatSignedInContext = SignedInRequestContext<ChatContract>
