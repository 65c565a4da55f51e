import NIOConcurrencyHelpers

/// A position that only moves forward (the log's head, a projection's checkpoint), and the tasks
/// waiting for it to pass a point.
public final class PositionWatcher: Sendable {
    private struct State {
        var position: UInt64
        var nextWaiterId: UInt64 = 0
        var waiters: [UInt64: (after: UInt64, continuation: CheckedContinuation<Void, Never>)] = [:]
    }

    private let state: NIOLockedValueBox<State>

    public init(position: UInt64) {
        state = NIOLockedValueBox(State(position: position))
    }

    public var position: UInt64 { state.withLockedValue { $0.position } }

    public func publish(_ position: UInt64) {
        let ready = state.withLockedValue { state -> [CheckedContinuation<Void, Never>] in
            guard position > state.position else { return [] }
            state.position = position
            let due = state.waiters.filter { $0.value.after < position }
            for id in due.keys { state.waiters[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
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

    /// Waits until the position reaches `target`; false when `timeout` passes first.
    public func wait(until target: UInt64, timeout: Duration) async -> Bool {
        if position >= target { return true }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                while !Task.isCancelled {
                    let seen = self.position
                    if seen >= target { return true }
                    await self.wait(beyond: seen)
                }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let reached = await group.next() ?? false
            group.cancelAll()
            return reached || self.position >= target
        }
    }
}
