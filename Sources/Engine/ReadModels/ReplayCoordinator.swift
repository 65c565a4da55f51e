import Foundation
import ServiceLifecycle
import Synchronization

/// Runs at most one of a runner's rebuilds at a time in the background for the operator (`POST
/// /admin/replay`, the console), and remembers how the latest one went. As a service, it holds a
/// shutdown until a rebuild in flight has stopped (asked to stop at its next chunk), so the stores
/// are not closed under it: the engine's server runs it beside its runner (`ProjectionRunner.replays`).
public actor ReplayCoordinator: Service {
    public enum State: String, Sendable { case idle, running, finished, failed }

    public struct Status: Sendable {
        public var state: State = .idle
        public var projections: [String] = []
        public var progress: RebuildProgress?
        public var startedAt: Date?
        public var finishedAt: Date?
        public var error: String?
    }

    public enum Refusal: Error, Equatable {
        case alreadyRunning
    }

    /// Every projection a rebuild may name, in fold order.
    public nonisolated let projections: [String]
    private let rebuild: @Sendable (
        _ names: [String]?, _ isCancelled: @escaping @Sendable () -> Bool, _ progress: @escaping @Sendable (RebuildProgress) -> Void
    ) throws -> RebuildProgress
    private let stopping = StopRequest()
    private var inFlight: Task<Void, Never>?
    public private(set) var status = Status()

    /// `runner.replays` makes it, once; it holds the runner weakly, which holds it.
    init<Catalog>(runner: ProjectionRunner<Catalog>) {
        projections = runner.projections.map(\.name)
        rebuild = { [weak runner] names, isCancelled, progress in
            guard let runner else { throw CancellationError() }
            return try runner.rebuild(names, isCancelled: isCancelled, progress: progress)
        }
    }

    /// Waits for the shutdown, then stops a rebuild in flight and waits for it. A runner served again
    /// (a test's stores, lent to a second server) starts with nothing asked to stop.
    public func run() async throws {
        stopping.requested.store(false, ordering: .relaxed)
        try? await gracefulShutdown()
        stopping.requested.store(true, ordering: .relaxed)
        await inFlight?.value
    }

    /// Starts rebuilding `names` (all when nil) and returns at once.
    public func start(_ names: [String]?) throws -> Status {
        guard status.state != .running else { throw Refusal.alreadyRunning }
        if let unknown = names?.first(where: { !projections.contains($0) }) { throw RebuildError.unknownProjection(unknown, known: projections) }
        status = Status(state: .running, projections: names ?? projections, startedAt: Date())
        let rebuild = rebuild
        let isCancelled: @Sendable () -> Bool = { [stopping] in stopping.requested.load(ordering: .relaxed) }
        inFlight = Task {
            do {
                let report = try await BlockingWork.run { try rebuild(names, isCancelled) { progress in Task { await self.record(progress) } } }
                self.finish(report, error: nil)
            } catch {
                self.finish(nil, error: error)
            }
        }
        return status
    }

    private func record(_ progress: RebuildProgress) {
        if status.state == .running { status.progress = progress }
    }

    private func finish(_ report: RebuildProgress?, error: (any Error)?) {
        status.state = error == nil ? .finished : .failed
        status.progress = report ?? status.progress
        status.error = error.map { String(describing: $0) }
        status.finishedAt = Date()
    }
}

/// Set once, when the server shuts down; read by a rebuild between its chunks.
private final class StopRequest: Sendable {
    let requested = Atomic<Bool>(false)
}
