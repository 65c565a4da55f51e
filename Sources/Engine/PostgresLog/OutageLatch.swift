import NIOConcurrencyHelpers

/// Once a write found no server to take it (nothing sent), the writes after it are refused at once
/// rather than each waiting out the operation timeout for a server that is down, which would hold
/// every client for seconds and pile requests up: one write is let through every `retryEvery` to
/// find out, and the first that succeeds ends the outage.
final class OutageLatch: Sendable {
    private struct Outage {
        var since: ContinuousClock.Instant
        var reason: String
        var lastTry: ContinuousClock.Instant
    }

    private let outage = NIOLockedValueBox<Outage?>(nil)
    let retryEvery: Duration

    init(retryEvery: Duration) {
        self.retryEvery = retryEvery
    }

    /// Why a write must not try now (nil: it may, and if the server was unreachable it is this
    /// interval's try).
    func refusal() -> String? {
        outage.withLockedValue { outage in
            guard let current = outage else { return nil }
            let now = ContinuousClock.now
            guard now - current.lastTry < retryEvery else {
                outage?.lastTry = now
                return nil
            }
            let seconds = Int((now - current.since).components.seconds)
            return "no server has taken a write for \(seconds) s (\(current.reason)); one write a second tries again"
        }
    }

    func unreachable(_ reason: String) {
        outage.withLockedValue { outage in
            let now = ContinuousClock.now
            outage = Outage(since: outage?.since ?? now, reason: reason, lastTry: now)
        }
    }

    func reached() {
        outage.withLockedValue { $0 = nil }
    }
}
