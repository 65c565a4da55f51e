import ServiceLifecycle

/// The services that work on the stores in the background (the projection runner, a product's own
/// workers), run together with the engine's own upkeep (`FreedMemory`), and the stores closed once
/// all of them have stopped: on a graceful
/// shutdown and on cancellation alike. Closing as a service of its own raced a fold still running on
/// the blocking-work queue when the group was cancelled rather than shut down (a SQLite read on a
/// closed connection crashed the tests).
public struct StoresAndTheirWorkers: Service {
    let workers: [any Service]
    let close: @Sendable () -> Void

    public init(workers: [any Service], close: @escaping @Sendable () -> Void) {
        self.workers = workers
        self.close = close
    }

    public func run() async throws {
        defer { close() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in workers { group.addTask { try await worker.run() } }
            group.addTask { await FreedMemory.releasePeriodically() }
            try await group.waitForAll()
        }
    }
}
