import NIOConcurrencyHelpers
import EventLog

/// `operation`'s result, or nil once `timeout` has passed, `abandonment` is declared or the caller is
/// cancelled: then `operation` is cancelled but not waited for. postgres-nio does not always end a
/// query whose server died under it; such a query holds up nothing but itself.
func withDeadline<T: Sendable>(
    _ timeout: Duration, abandonedWith abandonment: Abandonment? = nil, _ operation: @escaping @Sendable () async -> T
) async -> T? {
    let outcome = FirstOutcome<T?>()
    let work = Task { outcome.settle(await operation()) }
    let timer = Task {
        try? await Task.sleep(for: timeout)
        outcome.settle(nil)
    }
    let watch = abandonment?.watch { outcome.settle(nil) }
    let result = await withTaskCancellationHandler { await outcome.value() } onCancel: { outcome.settle(nil) }
    work.cancel()
    timer.cancel()
    if let watch { abandonment?.unwatch(watch) }
    return result
}

/// Declared once, for every operation still waiting on something given up (a server's connection pool).
final class Abandonment: Sendable {
    private struct State {
        var declared = false
        var next = 0
        var watchers: [Int: @Sendable () -> Void] = [:]
    }

    private let state = NIOLockedValueBox(State())

    /// Runs `action` when abandonment is declared, or now if it was; a token for `unwatch`.
    func watch(_ action: @escaping @Sendable () -> Void) -> Int? {
        let token = state.withLockedValue { state -> Int? in
            guard !state.declared else { return nil }
            state.next += 1
            state.watchers[state.next] = action
            return state.next
        }
        if token == nil { action() }
        return token
    }

    func unwatch(_ token: Int) {
        _ = state.withLockedValue { $0.watchers.removeValue(forKey: token) }
    }

    var isDeclared: Bool { state.withLockedValue { $0.declared } }

    func declare() {
        let actions = state.withLockedValue { state -> [@Sendable () -> Void] in
            state.declared = true
            defer { state.watchers = [:] }
            return Array(state.watchers.values)
        }
        for action in actions { action() }
    }
}
