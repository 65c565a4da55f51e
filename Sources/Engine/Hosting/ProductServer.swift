import HTTPServing
import Hummingbird
import Logging
import ServiceLifecycle

extension ProductStores {
    /// The product's server: `router` on the configured address, with the engine's connection limits
    /// and `CONNECT` answered `connectRefusal` (the product's error body), its `workers` running
    /// beside it, and these stores (then `closingAlso`, a product's own files) closed once they have
    /// all stopped.
    public func server<Context: RequestContext>(
        _ router: Router<Context>, configuration: some ServerConfiguration, connectRefusal: String, workers: [any Service],
        closingAlso: @escaping @Sendable () -> Void = {}, logger: Logger
    ) -> some ApplicationProtocol where Context.Source == ApplicationRequestContextSource {
        let connections = configuration.connections
        return Application(
            router: router,
            server: .http1(configuration: connections.channelConfiguration(connectRefusal: connectRefusal, logger: logger)),
            configuration: connections.serverConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: Product.name, logger: logger
            ),
            services: [StoresAndTheirWorkers(workers: workers, log: log, close: { close(); closingAlso() })],
            logger: logger
        )
    }
}
