import NIOConcurrencyHelpers

/// Bytes of upload bodies held in memory at once, across every request of a server. A multipart
/// body is collected whole (then checked, sealed and stored), so without a bound four parallel
/// 52 MB uploads took the server from 58 to 439 MB. A request reserves what its body may take
/// (its `Content-Length`, or the most a body may be) before reading it, and waits for room; one that
/// finds none within `wait` is refused before anything is read or recorded (503, retry).
final class UploadBudget: Sendable {
    let bytes: Int
    let wait: Duration
    private let inUse = NIOLockedValueBox(0)

    init(bytes: Int, wait: Duration = .seconds(10)) {
        self.bytes = bytes
        self.wait = wait
    }

    /// Runs `body` holding `amount` bytes of the budget (at most all of it); when they do not come
    /// free in time, runs `refused` instead and throws `Exhausted`.
    func holding<T>(_ amount: Int, refused: () async throws -> Void = {}, _ body: () async throws -> T) async throws -> T {
        let amount = min(max(amount, 0), bytes)
        let deadline = ContinuousClock.now + wait
        while !inUse.withLockedValue({ used in
            guard used + amount <= bytes else { return false }
            used += amount
            return true
        }) {
            guard ContinuousClock.now < deadline else {
                try await refused()
                throw Exhausted()
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        defer { inUse.withLockedValue { $0 -= amount } }
        return try await body()
    }

    var bytesInUse: Int { inUse.withLockedValue { $0 } }

    struct Exhausted: Error {}
}
