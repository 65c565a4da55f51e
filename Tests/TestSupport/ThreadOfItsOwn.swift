import Dispatch
import ReadModels

/// Runs `work` on a thread of its own (a serial queue of its own: Dispatch starts a thread for it
/// whenever none is free) and waits for it without holding one of Swift's cooperative threads. A
/// synchronous test body runs on one of those, and they are as many as the cores: a computation of
/// many seconds there (work spread with `concurrentPerform` takes the others too) stalls every task
/// in the process, every other suite's servers, timers and failovers, until it ends.
public func onAThreadOfItsOwn<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await BlockingWork.run(on: DispatchQueue(label: "a test's own thread"), work)
}
