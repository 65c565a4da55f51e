import Dispatch
import NIOConcurrencyHelpers

/// Work started when created (`BlockingWork.start`, on a queue of its own); `value()` waits for its result.
public final class Background<Value: Sendable>: Sendable {
    private let result = NIOLockedValueBox<Result<Value, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    public init(_ work: @escaping @Sendable () throws -> Value) {
        BlockingWork.start {
            let outcome = Result { try work() }
            self.result.withLockedValue { $0 = outcome }
            self.done.signal()
        }
    }

    public func value() throws -> Value {
        done.wait()
        done.signal()
        guard let outcome = result.withLockedValue({ $0 }) else { preconditionFailure("signalled before its result was stored") }
        return try outcome.get()
    }
}
