import HTTPServing
import HTTPTypes
import Hummingbird
import Logging
import ReadModels
import ServiceLifecycle

extension ProductStores {
    /// The product's server: `router` on the configured address, with the engine's connection limits
    /// and what is refused below the router (`CONNECT`, bytes that are not HTTP) answered in the
    /// product's error shape, `Failure`; `runner`, its replays and the product's own `workers` running
    /// beside it, and these stores (unless `lent`), then `closingAlso` (a product's own files), closed
    /// once they have all stopped.
    public func server<Context: BodyLimitedRequestContext & ClientAddressRequestContext, Failure: ContractError>(
        _ router: Router<Context>, configuration: some ServerConfiguration, errors: Failure.Type, runner: ProjectionRunner<Product.Catalog>,
        workers: [any Service] = [], closingAlso: @escaping @Sendable () -> Void = {}, logger: Logger
    ) async throws -> some ApplicationProtocol where Context.Source == ApplicationRequestContextSource {
        let connections = configuration.connections
        let answers = try await Failure.connectionAnswers(maximumBodySize: Context.maximumBodySize)
        return Application(
            responder: ClientAddressResolved(base: productResponder(router), proxies: connections.trustedProxies),
            server: .http1(configuration: connections.channelConfiguration(answers: answers, logger: logger)),
            configuration: connections.serverConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: Product.name, logger: logger
            ),
            services: [StoresAndTheirWorkers(workers: [runner, runner.replays] + workers, log: log, close: {
                if closedByServer { close() }
                closingAlso()
            })],
            logger: logger
        )
    }
}

/// What answers a product's requests: `router`, with a method a path does not take answered 405 and
/// HEAD as GET.
public func productResponder<Context: RequestContext>(_ router: Router<Context>) -> some HTTPResponder<Context> {
    router.refusingOtherMethods()
    return HeadAnsweredAsGet(base: router.buildResponder())
}

extension Router {
    /// A path the router serves answers a method it does not serve 405 with `Allow`, through the
    /// router's middleware (in the product's error shape), not the 404 of a path that does not exist.
    /// HEAD is answered as GET (`HeadAnsweredAsGet`). No product serves OPTIONS (no browser calls a
    /// product across origins) or TRACE (it would echo a request's cookies and tokens back), so they
    /// are refused the same way: the path exists (RFC 9110 15.5.6).
    func refusingOtherMethods() {
        let standard: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete]
        for served in Dictionary(grouping: routes, by: { $0.path.description }).values {
            guard let path = served.first?.path else { continue }
            let allowed = Set(served.map(\.method))
            let allow = standard.filter(allowed.contains).map(\.rawValue).joined(separator: ", ")
            for method in standard + [.options, .trace] where !allowed.contains(method) {
                on(path, method: method) { _, _ -> Response in throw HTTPError(.methodNotAllowed, headers: [.allow: allow]) }
            }
        }
    }
}

private let forwardedForHeader = HTTPField.Name("X-Forwarded-For")

/// The request's caller set to the client its trusted proxies name (`TrustedProxies`), before the
/// router: every per-address limit then counts clients, not the proxy in front of them.
struct ClientAddressResolved<Base: HTTPResponder>: HTTPResponder where Base.Context: ClientAddressRequestContext {
    let base: Base
    let proxies: TrustedProxies

    func respond(to request: Request, context: Base.Context) async throws -> Response {
        guard !proxies.isEmpty else { return try await base.respond(to: request, context: context) }
        var context = context
        let forwardedFor = forwardedForHeader.map { request.headers[values: $0] } ?? []
        context.remoteAddress = proxies.client(peer: context.remoteAddress, forwardedFor: forwardedFor)
        return try await base.respond(to: request, context: context)
    }

}

/// HEAD answered as GET would be, the body left out by NIO's encoder, which knows the request was a
/// HEAD: every general-purpose server must support it (RFC 9110 9.1), and monitors and proxies probe
/// with it. The router and its middleware see a GET.
struct HeadAnsweredAsGet<Base: HTTPResponder>: HTTPResponder {
    let base: Base

    func respond(to request: Request, context: Base.Context) async throws -> Response {
        guard request.method == .head else { return try await base.respond(to: request, context: context) }
        var head = request.head
        head.method = .get
        return try await base.respond(to: Request(head: head, body: request.body), context: context)
    }
}
