import Synchronization

/// The log's committed head position, and the tasks waiting for it to move.
final class HeadWatcher: Sendable {
    private struct State {
        var position: UInt64
        var nextWaiterId: UInt64 = 0
        var waiters: [UInt64: (after: UInt64, continuation: CheckedContinuation<Void, Never>)] = [:]
    }

    private let state: Mutex<State>

    init(position: UInt64) {
        state = Mutex(State(position: position))
    }

    var position: UInt64 { state.withLock { $0.position } }

    func publish(_ position: UInt64) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard position > state.position else { return [] }
            state.position = position
            let due = state.waiters.filter { $0.value.after < position }
            for id in due.keys { state.waiters[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }

    /// Returns once the head is beyond `position`, or when the task is cancelled.
    func wait(beyond position: UInt64) async {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiterId += 1
            return state.nextWaiterId
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumeNow = state.withLock { state -> Bool in
                    if state.position > position || Task.isCancelled { return true }
                    state.waiters[id] = (position, continuation)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let continuation = state.withLock { $0.waiters.removeValue(forKey: id)?.continuation }
            continuation?.resume()
        }
    }
}
