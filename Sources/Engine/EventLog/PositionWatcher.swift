import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A position that only moves forward (the log's head, a projection's checkpoint), and the tasks
/// waiting for it to pass a point.
public final class PositionWatcher: Sendable {
    private struct State {
        var position: UInt64
        var nextWaiterId: UInt64 = 0
        var waiters: [UInt64: (after: UInt64, continuation: CheckedContinuation<Void, Never>)] = [:]
        var timedWaiters: [UInt64: (target: UInt64, continuation: CheckedContinuation<Bool, Never>, timer: Scheduled<Void>)] = [:]
    }

    private let state: NIOLockedValueBox<State>

    public init(position: UInt64) {
        state = NIOLockedValueBox(State(position: position))
    }

    public var position: UInt64 { state.withLockedValue { $0.position } }

    public func publish(_ position: UInt64) {
        let (ready, reached) = state.withLockedValue { state -> ([CheckedContinuation<Void, Never>], [CheckedContinuation<Bool, Never>]) in
            guard position > state.position else { return ([], []) }
            state.position = position
            let due = state.waiters.filter { $0.value.after < position }
            for id in due.keys { state.waiters[id] = nil }
            var reached: [CheckedContinuation<Bool, Never>] = []
            for (id, waiter) in state.timedWaiters where waiter.target <= position {
                state.timedWaiters[id] = nil
                waiter.timer.cancel()
                reached.append(waiter.continuation)
            }
            return (due.values.map(\.continuation), reached)
        }
        for continuation in ready { continuation.resume() }
        for continuation in reached { continuation.resume(returning: true) }
    }

    /// Returns once the head is beyond `position`, or when the task is cancelled.
    public func wait(beyond position: UInt64) async {
        let id = state.withLockedValue { state -> UInt64 in
            state.nextWaiterId += 1
            return state.nextWaiterId
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLockedValue { state -> Bool in
                    if state.position > position || Task.isCancelled { return true }
                    state.waiters[id] = (position, continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let continuation = state.withLockedValue { $0.waiters.removeValue(forKey: id)?.continuation }
            continuation?.resume()
        }
    }
}

extension PositionWatcher {
    /// Returns once the position reaches `target`, or when the task is cancelled.
    public func wait(until target: UInt64) async {
        while !Task.isCancelled {
            let seen = position
            if seen >= target { return }
            await wait(beyond: seen)
        }
    }

    /// Waits until the position reaches `target`; false when `timeout` passes first. One
    /// continuation, resumed once, by whichever comes first: the position (`publish`) or a timer on
    /// an event loop, which the other cancels.
    public func wait(until target: UInt64, timeout: Duration) async -> Bool {
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
                    let timer = MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: TimeAmount(timeout)) { self.expire(id) }
                    state.timedWaiters[id] = (target, continuation, timer)
                    return nil
                }
                if let reached { continuation.resume(returning: reached) }
            }
        } onCancel: {
            expire(id)
        }
    }

    private func expire(_ id: UInt64) {
        state.withLockedValue { $0.timedWaiters.removeValue(forKey: id) }?.continuation.resume(returning: false)
    }
}
