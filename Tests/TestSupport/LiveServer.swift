import Hummingbird
import HummingbirdCore
import HummingbirdTesting
import Logging
import NIOCore
import ProductHosting
import ServiceLifecycle

/// Serves `router` on an ephemeral 127.0.0.1 port with `services` until `body` returns, through the
/// responder a product's server uses (`productResponder`: 405s, HEAD as GET), though not its
/// connection handlers (`ConnectionLimits`).
public func serve<T: Sendable, Context: RequestContext>(
    _ router: Router<Context>, services: [any Service] = [], logger: Logger, _ body: @Sendable (Int) async throws -> T
) async throws -> T where Context.Source == ApplicationRequestContextSource {
    let app = Application(
        responder: productResponder(router), configuration: .init(address: .hostname("127.0.0.1", port: 0)), services: services, logger: logger
    )
    return try await serve(app, body)
}

/// Runs `app`, a product's application from its real builder, exactly as its `serve` runs it, until
/// `body` returns, `body` given the port it listens on (its configuration's port must be 0, an
/// ephemeral one: `ServingSettings.testing`). An app that fails before it listens fails this, not a
/// wait. HummingbirdTesting's `.live` would rebind it with `ApplicationConfiguration.with(address:)`,
/// which drops the connection limit.
public func serve<T: Sendable>(_ app: some ApplicationProtocol, _ body: @Sendable (Int) async throws -> T) async throws -> T {
    let (ports, reportPort) = AsyncStream.makeStream(of: Int.self)
    let group = ServiceGroup(configuration: .init(services: [PortReporting(base: app, report: reportPort)], logger: app.logger))
    return try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask {
            defer { reportPort.finish() }
            try await group.run()
        }
        var reported = ports.makeAsyncIterator()
        guard let port = await reported.next() else {
            try await tasks.waitForAll()
            throw CancellationError()
        }
        let result: T
        do {
            result = try await body(port)
        } catch {
            await group.triggerGracefulShutdown()
            throw error
        }
        await group.triggerGracefulShutdown()
        try await tasks.waitForAll()
        return result
    }
}

/// Runs `app`, a product's real server, with a test client connected to it for `body`, shut down after.
public func serveWithClient<T: Sendable>(
    _ app: some ApplicationProtocol, timeout: Duration = .seconds(60), _ body: @Sendable (TestClient) async throws -> T
) async throws -> T {
    try await serve(app) { port in try await withClient(port: port, timeout: timeout, body) }
}

/// `base`, reporting the port it listens on once it does.
private struct PortReporting<Base: ApplicationProtocol>: ApplicationProtocol, Service {
    let base: Base
    let report: AsyncStream<Int>.Continuation

    var responder: Base.Responder { get async throws { try await base.responder } }
    var server: HTTPServerBuilder { base.server }
    var eventLoopGroup: any EventLoopGroup { base.eventLoopGroup }
    var configuration: ApplicationConfiguration { base.configuration }
    var logger: Logger { base.logger }
    var services: [any Service] { base.services }
    var processesRunBeforeServerStart: [@Sendable () async throws -> Void] { base.processesRunBeforeServerStart }

    @Sendable func onServerRunning(_ channel: any Channel) async {
        await base.onServerRunning(channel)
        if let port = channel.localAddress?.port { report.yield(port) }
    }
}

/// A test client connected to 127.0.0.1:`port` for `body`, shut down after.
public func withClient<T: Sendable>(port: Int, timeout: Duration = .seconds(60), _ body: @Sendable (TestClient) async throws -> T) async throws -> T {
    let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: timeout))
    client.connect()
    let result: T
    do {
        result = try await body(client)
    } catch {
        try? await client.shutdown()
        throw error
    }
    try await client.shutdown()
    return result
}
