import Foundation
import Hummingbird
import NIOCore

/// What a product's contract says of every request: how large a body may be, how its JSON is written
/// and read, who a bearer credential grants, and the answer to a signed-in route reached without one.
public protocol RequestContract: Sendable {
    /// What a valid credential says: at least whose it is.
    associatedtype Grant: UserGrant
    static var maximumBodySize: Int { get }
    static func responseEncoder() -> JSONEncoder
    static func requestDecoder() -> JSONDecoder
    /// Thrown (in the product's error shape) when a route behind sign-in has no grant.
    static func signInRequired() -> any Error
}

extension RequestContract {
    public static func requestDecoder() -> JSONDecoder { JSONDecoder() }
}

/// A request context whose routes read no body larger than `maximumBodySize`: what the server
/// refuses from a request's head alone (`BelowRouterAnswers`), before the body is sent.
public protocol BodyLimitedRequestContext: RequestContext {
    static var maximumBodySize: Int { get }
}

extension BodyLimitedRequestContext {
    /// What the routes read a body up to: the same limit.
    public var maxUploadSize: Int { Self.maximumBodySize }
}

/// A request context whose caller's address may be set after it is made: to the client a trusted
/// proxy names (`TrustedProxies`), before any route or middleware reads it.
public protocol ClientAddressRequestContext: RemoteAddressRequestContext {
    var remoteAddress: SocketAddress? { get set }
}

/// A signed-in user's grant, as the product's auth middleware found it.
public protocol UserGrant: Sendable {
    var userId: Int64 { get }
}

/// Every product's per-request context: its contract's coders and body limit, the caller's address,
/// and the grant its auth middleware sets from a valid credential.
public struct ProductRequestContext<Contract: RequestContract>: BodyLimitedRequestContext, ClientAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public var grant: Contract.Grant?
    /// Why the credential the request presented was refused, when it was: what a route behind sign-in
    /// answers. Open routes (signing in, refreshing, health) ignore a stale credential.
    public var credentialRefusal: (any Error)?
    public var userId: Int64? { grant?.userId }
    public var remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        grant = nil
        remoteAddress = source.channel.remoteAddress
    }

    public static var maximumBodySize: Int { Contract.maximumBodySize }
    public var responseEncoder: JSONEncoder { Contract.responseEncoder() }
    public var requestDecoder: JSONDecoder { Contract.requestDecoder() }
}

/// The context of every route mounted behind sign-in: it exists only with a grant, so a handler
/// cannot forget to check for one; without one, the refusal of the credential presented, or
/// `Contract.signInRequired()` when none was, before any handler runs.
public struct SignedInRequestContext<Contract: RequestContract>: ChildRequestContext, BodyLimitedRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let grant: Contract.Grant
    public let remoteAddress: SocketAddress?
    public var userId: Int64 { grant.userId }

    public init(context: ProductRequestContext<Contract>) throws {
        guard let grant = context.grant else { throw context.credentialRefusal ?? Contract.signInRequired() }
        coreContext = context.coreContext
        self.grant = grant
        remoteAddress = context.remoteAddress
    }

    public static var maximumBodySize: Int { Contract.maximumBodySize }
    public var responseEncoder: JSONEncoder { Contract.responseEncoder() }
    public var requestDecoder: JSONDecoder { Contract.requestDecoder() }
}
