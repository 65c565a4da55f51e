import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A position that only moves forward (the log's head, a projection's checkpoint), and the tasks
/// waiting for it to reach a point.
public final class PositionWatcher: Sendable {
    private struct Waiter {
        var target: UInt64
        var continuation: CheckedContinuation<Bool, Never>
        /// The deadline's, on an event loop; nil for a wait without one.
        var timer: Scheduled<Void>?
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
        let reached = state.withLockedValue { state -> [CheckedContinuation<Bool, Never>] in
            guard position > state.position else { return [] }
            state.position = position
            var reached: [CheckedContinuation<Bool, Never>] = []
            for (id, waiter) in state.waiters where waiter.target <= position {
                state.waiters[id] = nil
                waiter.timer?.cancel()
                reached.append(waiter.continuation)
            }
            return reached
        }
        for continuation in reached { continuation.resume(returning: true) }
    }

    /// Returns once the position is beyond `position`, or when the task is cancelled.
    public func wait(beyond position: UInt64) async {
        _ = await reach(position + 1, timeout: nil)
    }

    /// Returns once the position reaches `target`, or when the task is cancelled.
    public func wait(until target: UInt64) async {
        _ = await reach(target, timeout: nil)
    }

    /// Waits until the position reaches `target`; false when `timeout` passes first.
    public func wait(until target: UInt64, timeout: Duration) async -> Bool {
        await reach(target, timeout: timeout)
    }

    /// One continuation, resumed once, by whichever comes first: the position (`publish`), the
    /// deadline (a timer on an event loop, which `publish` cancels) or the task's cancellation.
    private func reach(_ target: UInt64, timeout: Duration?) async -> Bool {
        if position >= target { return true }
        let id = state.withLockedValue { state -> UInt64 in
            state.nextWaiterId += 1
            return state.nextWaiterId
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let reached = state.withLockedValue { state -> Bool? in
                    if state.position >= target { return true }
                    if Task.isCancelled { return false }
                    let timer = timeout.map { MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: TimeAmount($0)) { self.expire(id) } }
                    state.waiters[id] = Waiter(target: target, continuation: continuation, timer: timer)
                    return nil
                }
                if let reached { continuation.resume(returning: reached) }
            }
        } onCancel: {
            expire(id)
        }
    }

    private func expire(_ id: UInt64) {
        guard let waiter = state.withLockedValue({ $0.waiters.removeValue(forKey: id) }) else { return }
        waiter.timer?.cancel()
        waiter.continuation.resume(returning: false)
    }
}
