import Dispatch
import NIOConcurrencyHelpers

/// A position that only moves forward (the log's head, a projection's checkpoint), and the tasks
/// waiting for it to pass a point.
///
/// A wait is one continuation, resumed once: by the publish that passes its point, by its deadline
/// (a Dispatch timer), or by its task's cancellation. Not a task group racing a sleeping task: on a
/// server whose executor is the event loops, each child task, each cancellation and the group's end
/// is a job queued behind every request in flight, and a write waits for several of them in turn
/// (BENCHMARKS.md, issue 33: the ratings beside reads).
public final class PositionWatcher: Sendable {
    private struct Waiter {
        var after: UInt64
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var position: UInt64
        var nextWaiterId: UInt64 = 0
        var waiters: [UInt64: Waiter] = [:]
    }

    private let state: NIOLockedValueBox<State>

    public init(position: UInt64) {
        state = NIOLockedValueBox(State(position: position))
    }

    public var position: UInt64 { state.withLockedValue { $0.position } }

    public func publish(_ position: UInt64) {
        let ready = state.withLockedValue { state -> [CheckedContinuation<Bool, Never>] in
            guard position > state.position else { return [] }
            state.position = position
            let due = state.waiters.filter { $0.value.after < position }
            for id in due.keys { state.waiters[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in ready { continuation.resume(returning: true) }
    }

    /// True once the position is beyond `position`; false when `timeout` passes first or the task
    /// is cancelled.
    @discardableResult
    public func wait(beyond position: UInt64, timeout: Duration? = nil) async -> Bool {
        let id = state.withLockedValue { state -> UInt64 in
            state.nextWaiterId += 1
            return state.nextWaiterId
        }
        let reached = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let now = state.withLockedValue { state -> Bool? in
                    if state.position > position { return true }
                    if Task.isCancelled { return false }
                    state.waiters[id] = Waiter(after: position, continuation: continuation)
                    return nil
                }
                if let now { return continuation.resume(returning: now) }
                if let timeout {
                    DispatchQueue.global().asyncAfter(deadline: .now() + timeout.seconds) { self.giveUp(id) }
                }
            }
        } onCancel: {
            giveUp(id)
        }
        // A deadline or a cancellation can beat the publish that passed the point by an instant.
        return reached || self.position > position
    }

    private func giveUp(_ id: UInt64) {
        state.withLockedValue { $0.waiters.removeValue(forKey: id) }?.continuation.resume(returning: false)
    }
}

extension PositionWatcher {
    /// True once the position reaches `target`; false when `timeout` passes first or the task is
    /// cancelled.
    @discardableResult
    public func wait(until target: UInt64, timeout: Duration? = nil) async -> Bool {
        guard target > 0 else { return true }
        return await wait(beyond: target - 1, timeout: timeout)
    }
}
