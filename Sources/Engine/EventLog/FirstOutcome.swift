import NIOConcurrencyHelpers

/// The first value settled, for the one caller waiting on it; later ones are dropped. What lets a
/// wait end on whichever comes first: an answer, a deadline, the caller's cancellation.
package final class FirstOutcome<T: Sendable>: Sendable {
    private enum State {
        case waiting(CheckedContinuation<T, Never>?)
        case settled(T)
    }

    private let state = NIOLockedValueBox(State.waiting(nil))

    package init() {}

    package func settle(_ value: T) {
        let waiting = state.withLockedValue { state -> CheckedContinuation<T, Never>? in
            guard case .waiting(let continuation) = state else { return nil }
            state = .settled(value)
            return continuation
        }
        waiting?.resume(returning: value)
    }

    package func value() async -> T {
        await withCheckedContinuation { continuation in
            let settled = state.withLockedValue { state -> T? in
                switch state {
                case .settled(let value): return value
                case .waiting:
                    state = .waiting(continuation)
                    return nil
                }
            }
            if let settled { continuation.resume(returning: settled) }
        }
    }
}
