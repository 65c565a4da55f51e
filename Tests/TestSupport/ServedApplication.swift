import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTesting
import Logging
import NIOCore
import ServiceLifecycle

/// Serves `app`, a product's application from its real builder, exactly as its `serve` runs it (its
/// configuration's port must be 0: an ephemeral one of 127.0.0.1) until `body` returns.
/// HummingbirdTesting's `.live` would rebind it with `ApplicationConfiguration.with(address:)`,
/// which drops the connection limit.
public func withServed<App: ApplicationProtocol>(_ app: App, _ body: @Sendable (_ port: Int) async throws -> Void) async throws {
    let (ports, reportPort) = AsyncStream.makeStream(of: Int.self)
    let services = ServiceGroup(configuration: .init(services: [PortReportingApplication(base: app, reportPort: reportPort)], logger: app.logger))
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
}

/// GET `uri` (or another method) of a served application on a connection of its own.
public func get(_ uri: String, port: Int, method: HTTPRequest.Method = .get) async throws -> TestClient.Response {
    let client = TestClient(host: "127.0.0.1", port: port, configuration: .init())
    client.connect()
    do {
        let response = try await client.execute(.init(uri, method: method, authority: "127.0.0.1"))
        try await client.shutdown()
        return response
    } catch {
        try? await client.shutdown()
        throw error
    }
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

/// What every product's served application must answer, whatever its contract: `/health` 200 and
/// `ok`, `/metrics` in Prometheus text, its `/openapi.json`, an unknown route 404 in the product's
/// error shape (`errorKeys`, its top-level JSON keys), each with an `X-Request-Id`.
public enum ServedApplicationCheck {
    public static func problems(port: Int, errorKeys: Set<String>) async throws -> [String] {
        var problems: [String] = []
        for (uri, status) in [("/health", HTTPResponse.Status.ok), ("/metrics", .ok), ("/openapi.json", .ok), ("/no/such/route", .notFound)] {
            let response = try await get(uri, port: port)
            if response.status != status { problems.append("\(uri): \(response.status.code), not \(status.code)") }
            if !response.headers.contains(where: { $0.name.canonicalName == "x-request-id" }) { problems.append("\(uri): no X-Request-Id") }
            let json = response.body.flatMap { try? JSONSerialization.jsonObject(with: Data(buffer: $0)) as? [String: Any] }
            switch uri {
            case "/health" where json?["status"] as? String != "ok": problems.append("/health: status \(json?["status"] ?? "none")")
            case "/no/such/route" where json.map { Set($0.keys) } != errorKeys: problems.append("404 body keys \(json.map { $0.keys.sorted() } ?? []), not \(errorKeys.sorted())")
            default: break
            }
        }
        // A served path asked with a method it does not serve: 405 naming those it does, in the error shape.
        let refused = try await get("/health", port: port, method: .post)
        let body = refused.body.flatMap { try? JSONSerialization.jsonObject(with: Data(buffer: $0)) as? [String: Any] }
        if refused.status != .methodNotAllowed || refused.headers[.allow] != "GET" || body.map({ Set($0.keys) }) != errorKeys {
            problems.append("POST /health: \(refused.status.code), Allow \(refused.headers[.allow] ?? "none"), body keys \(body.map { $0.keys.sorted() } ?? [])")
        }
        return problems
    }
}
