import Hummingbird
import Logging
import ServiceLifecycle

/// Serves `router` on an ephemeral 127.0.0.1 port with `services` until `body` returns.
public func serve<T: Sendable, Context: RequestContext>(
    _ router: Router<Context>, services: [any Service] = [], logger: Logger, _ body: @Sendable (Int) async throws -> T
) async throws -> T where Context.Source == ApplicationRequestContextSource {
    let (ports, reportPort) = AsyncStream.makeStream(of: Int.self)
    let app = Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)), services: services,
        onServerRunning: { channel in
            if let port = channel.localAddress?.port { reportPort.yield(port) }
        },
        logger: logger
    )
    let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
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
