import Foundation
import Hummingbird
import NIOCore

/// Per-request context of the chat product's routes: the signed-in user and the token they used,
/// once `TokenAuthMiddleware` has found them.
public struct ChatRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public var signedIn: SignedIn?
    public let remoteAddress: SocketAddress?

    public struct SignedIn: Sendable {
        public var userId: Int64
        /// The SHA-256 of the token this request came with: what logout revokes.
        public var tokenHash: String
    }

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        signedIn = nil
        remoteAddress = source.channel.remoteAddress
    }

    /// A message with its most and largest files, and the form around them.
    public static let maximumBodySize = AttachmentLimits.maximumRequestBytes

    public var maxUploadSize: Int { Self.maximumBodySize }
    public var responseEncoder: JSONEncoder { ChatJSONEncoder.make() }
}

enum ChatJSONEncoder {
    /// As Django REST framework writes JSON: `/` unescaped.
    static func make() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return encoder
    }
}

/// The context of every route behind `TokenAuthMiddleware`: it exists only with a user.
public struct SignedInContext: ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let userId: Int64
    public let tokenHash: String
    public let remoteAddress: SocketAddress?

    public init(context: ChatRequestContext) throws {
        guard let signedIn = context.signedIn else { throw ChatAPIError.notAuthenticated }
        coreContext = context.coreContext
        userId = signedIn.userId
        tokenHash = signedIn.tokenHash
        remoteAddress = context.remoteAddress
    }

    public var maxUploadSize: Int { ChatRequestContext.maximumBodySize }
    public var responseEncoder: JSONEncoder { ChatJSONEncoder.make() }
}
