import NuvieApp
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import TestSupport

/// Runs `body` against the server exactly as `nuvie serve` runs it, on an ephemeral port of
/// 127.0.0.1. `withLiveServer` cannot do for the connection limit: HummingbirdTesting rebinds the
/// application with `ApplicationConfiguration.with(address:)`, which drops the limit, and its own
/// client holds a connection.
func withServedApplication(
    _ configure: (inout AppConfiguration) -> Void = { _ in },
    _ body: @Sendable (_ port: Int) async throws -> Void
) async throws {
    let directory = try TemporaryDirectory()
    var configuration = AppConfiguration.testing(dataDirectory: directory.url)
    configuration.demoDataset = replayFixtures.appendingPathComponent("movielens-tiny")
    configuration.metricsRegistry = metricsRegistry
    configure(&configuration)
    let (ports, reportPort) = AsyncStream.makeStream(of: Int.self)
    let app = PortReportingApplication(base: try await buildApplication(configuration: configuration), reportPort: reportPort)
    let services = ServiceGroup(configuration: .init(services: [app], logger: app.logger))
    try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask {
            defer { reportPort.finish() }
            try await services.run()
        }
        var reported = ports.makeAsyncIterator()
        guard let port = await reported.next() else { return try await tasks.waitForAll() }
        do {
            try await body(port)
        } catch {
            await services.triggerGracefulShutdown()
            throw error
        }
        await services.triggerGracefulShutdown()
        try await tasks.waitForAll()
    }
    _ = directory
}

/// The application as it is, telling the test which port it got.
private struct PortReportingApplication<Base: ApplicationProtocol>: ApplicationProtocol {
    typealias Responder = Base.Responder

    let base: Base
    let reportPort: AsyncStream<Int>.Continuation

    var responder: Responder { get async throws { try await base.responder } }
    var server: HTTPServerBuilder { base.server }
    var eventLoopGroup: any EventLoopGroup { base.eventLoopGroup }
    var configuration: ApplicationConfiguration { base.configuration }
    var logger: Logger { base.logger }
    var services: [any Service] { base.services }
    var processesRunBeforeServerStart: [@Sendable () async throws -> Void] { base.processesRunBeforeServerStart }

    @Sendable func onServerRunning(_ channel: any Channel) async {
        await base.onServerRunning(channel)
        if let port = channel.localAddress?.port { reportPort.yield(port) }
    }
}
