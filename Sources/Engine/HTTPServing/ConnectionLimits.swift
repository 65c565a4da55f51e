import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// How long the server waits on a client, and how many clients it serves at once. The defaults suit
/// phones on mobile networks, directly or behind a load balancer; README "Connections and timeouts".
public struct ConnectionLimits: Sendable, Equatable {
    /// A keep-alive connection with no request under way is closed after this long. Longer than the
    /// idle timeouts of the balancers in front of it (AWS ALB and most proxies: 60 s), so that the
    /// balancer closes idle connections first: a request it sends as the server closes would fail.
    public var idleTimeout: Duration
    /// A request's head must be complete this long after the connection opens, or after the first
    /// bytes of a later request arrive. A phone sends its head in one packet; 10 s covers three
    /// retransmissions of it (1 + 2 + 4 s) and bounds headers trickled a byte at a time.
    public var headerTimeout: Duration
    /// A request's body must be complete this long after its head. Bodies are JSON of at most 64 KiB:
    /// under 30 s down to about 20 kbit/s, a bad 2G link.
    public var bodyTimeout: Duration
    /// Connections served at once. Further ones wait in the listen backlog (256) until one closes and
    /// are refused when it is full; a burst can overshoot by up to 3, as NIO accepts up to 4
    /// connections per wake-up. Kept well under the usual limit of 1024 open files per process.
    public var maxConnections: Int
    /// Connections served at once from one client address; one more is closed as it opens. A
    /// quarter of `maxConnections` by default, so one client can never hold them all. Behind a load
    /// balancer or proxy every connection comes from its address: set this to `maxConnections` there.
    public var maxConnectionsPerAddress: Int
    /// The proxies whose `X-Forwarded-For` names the client a request's per-address limits count
    /// (the rate limit, Chat's login throttle, News' limit); none by default. Connections are still
    /// counted by the address they come from.
    public var trustedProxies: TrustedProxies

    public init(
        idleTimeout: Duration = .seconds(75), headerTimeout: Duration = .seconds(10), bodyTimeout: Duration = .seconds(30),
        maxConnections: Int = 512, maxConnectionsPerAddress: Int? = nil, trustedProxies: TrustedProxies = .none
    ) {
        self.idleTimeout = idleTimeout
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.maxConnections = maxConnections
        self.maxConnectionsPerAddress = maxConnectionsPerAddress ?? max(1, maxConnections / 4)
        self.trustedProxies = trustedProxies
    }
}

extension ConnectionLimits {
    /// Each connection's pipeline: Hummingbird's idle timeout, and the handlers it does not offer.
    /// `answers` are the product's, for what is refused before any route.
    public func channelConfiguration(answers: ConnectionAnswers, logger: Logger) -> HTTP1Channel.Configuration {
        let perAddress = ConnectionsPerAddress(limit: maxConnectionsPerAddress)
        return HTTP1Channel.Configuration(
            additionalChannelHandlers: [
                PerAddressConnectionLimitHandler(perAddress),
                RequestReadDeadlineHandler(headerTimeout: headerTimeout, bodyTimeout: bodyTimeout, logger: logger),
                BelowRouterAnswers(answers: answers),
            ],
            idleTimeout: TimeAmount(idleTimeout)
        )
    }

    /// Past `maxConnections` Hummingbird stops accepting until a connection closes.
    public func serverConfiguration(address: BindAddress, serverName: String, logger: Logger) -> ApplicationConfiguration {
        ApplicationConfiguration(
            address: address, serverName: serverName, availableConnectionsDelegate: .maximum(maxConnections, logger: logger)
        )
    }
}

extension ConnectionLimits {
    /// `<PREFIX>_HTTP_IDLE_TIMEOUT_SECONDS`, `…_HEADER_TIMEOUT_SECONDS`, `…_BODY_TIMEOUT_SECONDS` and
    /// `…_MAX_CONNECTIONS` and `…_MAX_CONNECTIONS_PER_ADDRESS` (a quarter of the first when unset),
    /// and `…_TRUSTED_PROXIES`, each checked.
    public mutating func apply(_ settings: EnvironmentSettings, prefix: String) throws {
        if let seconds = try settings.integer("\(prefix)_HTTP_IDLE_TIMEOUT_SECONDS", in: 1...3600) { idleTimeout = .seconds(seconds) }
        if let seconds = try settings.integer("\(prefix)_HTTP_HEADER_TIMEOUT_SECONDS", in: 1...300) { headerTimeout = .seconds(seconds) }
        if let seconds = try settings.integer("\(prefix)_HTTP_BODY_TIMEOUT_SECONDS", in: 1...3600) { bodyTimeout = .seconds(seconds) }
        if let count = try settings.integer("\(prefix)_HTTP_MAX_CONNECTIONS", in: 1...1_000_000) {
            maxConnections = count
            maxConnectionsPerAddress = max(1, count / 4)
        }
        if let count = try settings.integer("\(prefix)_HTTP_MAX_CONNECTIONS_PER_ADDRESS", in: 1...1_000_000) { maxConnectionsPerAddress = count }
        if let proxies = try settings.trustedProxies("\(prefix)_HTTP_TRUSTED_PROXIES") { trustedProxies = proxies }
    }
}
