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
/// back other uploads only, not every user's messages. Two uploads each holding part of the budget
/// and each waiting for the other's would both be refused at the deadline: a request that needs room
/// while an older one waits gives way (refused at once, its bytes freed), so only the oldest waiting
/// request waits while holding bytes.
final class UploadBudget: Sendable {
    let bytes: Int
    let unmetered: Int
    let wait: Duration
    private struct State {
        var inUse = 0
        var nextTicket = 0
        /// The metered requests under way, by ticket (admission order), and whether each waits for room.
        var waiting: [Int: Bool] = [:]

        /// Whether an older request waits for room: then this one gives way, so the oldest waiting
        /// one is the only one that waits while holding bytes.
        func mustGiveWay(_ ticket: Int) -> Bool {
            waiting.contains { $0.key < ticket && $0.value }
        }
    }

    private let state = NIOLockedValueBox(State())

    init(bytes: Int, unmetered: Int = 0, wait: Duration = .seconds(10)) {
        self.bytes = bytes
        self.unmetered = unmetered
        self.wait = wait
    }

    /// Runs `body` with `request`'s body metered, and gives back all it took when `body` ends.
    func metering<T>(_ request: Request, _ body: (Request) async throws -> T) async throws -> T {
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared <= unmetered { return try await body(request) }
        let taken = NIOLockedValueBox(0)
        let ticket = state.withLockedValue { state in
            defer { state.nextTicket += 1 }
            state.waiting[state.nextTicket] = false
            return state.nextTicket
        }
        defer {
            let amount = taken.withLockedValue { $0 }
            state.withLockedValue { state in
                state.inUse -= amount
                state.waiting[ticket] = nil
            }
        }
        var metered = request
        metered.body = RequestBody(asyncSequence: request.body.map { @Sendable [self] buffer in
            try await take(buffer.readableBytes, ticket: ticket)
            taken.withLockedValue { $0 += buffer.readableBytes }
            return buffer
        })
        return try await body(metered)
    }

    var bytesInUse: Int { state.withLockedValue { $0.inUse } }

    private func take(_ amount: Int, ticket: Int) async throws {
        let deadline = ContinuousClock.now + wait
        defer { state.withLockedValue { $0.waiting[ticket] = false } }
        while try !state.withLockedValue({ state in
            guard state.inUse + amount > bytes else {
                state.inUse += amount
                return true
            }
            guard !state.mustGiveWay(ticket) else { throw Exhausted() }
            state.waiting[ticket] = true
            return false
        }) {
            guard ContinuousClock.now < deadline else { throw Exhausted() }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    struct Exhausted: Error {}
}
