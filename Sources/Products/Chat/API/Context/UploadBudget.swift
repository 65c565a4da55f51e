import Hummingbird
import NIOConcurrencyHelpers
import NIOCore

/// Bytes of send-chat bodies held in memory at once, across every request of a server. A multipart
/// body is collected whole (then checked, sealed and stored), so without a bound four parallel
/// 52 MB uploads took the server from 58 to 439 MB. Each part of a body takes its bytes as it
/// arrives, waiting for room; a request that finds none within `wait` is refused (503, retry) before
/// anything is recorded. A client sending slowly holds only what it has sent: when a request took
/// its declared `Content-Length` up front, one upload trickled over 30 s kept every other user's
/// send-chat waiting and then refused. A body that declares itself no larger than `unmetered` (a
/// JSON message) takes nothing: what such bodies hold together is bounded by the connection limit,
/// and an upload sent fast and then stalled, its bytes held until the body's deadline, then holds
/// back other uploads only, not every user's messages.
final class UploadBudget: Sendable {
    let bytes: Int
    let unmetered: Int
    let wait: Duration
    private let inUse = NIOLockedValueBox(0)

    init(bytes: Int, unmetered: Int = 0, wait: Duration = .seconds(10)) {
        self.bytes = bytes
        self.unmetered = unmetered
        self.wait = wait
    }

    /// Runs `body` with `request`'s body metered, and gives back all it took when `body` ends.
    func metering<T>(_ request: Request, _ body: (Request) async throws -> T) async throws -> T {
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared <= unmetered { return try await body(request) }
        let taken = NIOLockedValueBox(0)
        defer {
            let amount = taken.withLockedValue { $0 }
            inUse.withLockedValue { $0 -= amount }
        }
        var metered = request
        metered.body = RequestBody(asyncSequence: request.body.map { @Sendable [self] buffer in
            try await take(buffer.readableBytes)
            taken.withLockedValue { $0 += buffer.readableBytes }
            return buffer
        })
        return try await body(metered)
    }

    var bytesInUse: Int { inUse.withLockedValue { $0 } }

    private func take(_ amount: Int) async throws {
        let deadline = ContinuousClock.now + wait
        while !inUse.withLockedValue({ used in
            guard used + amount <= bytes else { return false }
            used += amount
            return true
        }) {
            guard ContinuousClock.now < deadline else { throw Exhausted() }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    struct Exhausted: Error {}
}
