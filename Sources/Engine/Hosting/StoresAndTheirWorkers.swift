import EventLog
import ServiceLifecycle

/// The services that work on the stores in the background (the projection runner, a product's own
/// workers), run together with the engine's own upkeep (`FreedMemory`), and the stores closed once
/// all of them have stopped: on a graceful
/// shutdown and on cancellation alike. Closing as a service of its own raced a fold still running on
/// the blocking-work queue when the group was cancelled rather than shut down (a SQLite read on a
/// closed connection crashed the tests).
public struct StoresAndTheirWorkers: Service {
    let workers: [any Service]
    let log: EventLog
    let close: @Sendable () -> Void

    public init(workers: [any Service], log: EventLog, close: @escaping @Sendable () -> Void) {
        self.workers = workers
        self.log = log
        self.close = close
    }

    public func run() async throws {
        defer { close() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in workers { group.addTask { try await worker.run() } }
            group.addTask { await FreedMemory.releasePeriodically(log) }
            try await group.waitForAll()
        }
    }
}
