import Foundation
import Synchronization

/// Slows password guessing: after `perAccount` failed logins for one email, or `perAddress` from one
/// client address, within `window`, further attempts for it are refused (429 with `Retry-After`)
/// until the oldest failure leaves the window, whether or not the password would be right. A success
/// clears the account's failures, not the address's.
final class LoginThrottle: Sendable {
    struct Limits: Sendable, Equatable {
        var perAccount: Int
        var perAddress: Int
        var window: Duration
    }

    private let limits: Limits
    private let failures = Mutex<[String: [ContinuousClock.Instant]]>([:])

    init(_ limits: Limits) {
        self.limits = limits
    }

    /// Seconds until `email` from `address` may try again; nil when it may now.
    func wait(email: String, address: String?, now: ContinuousClock.Instant = .now) -> Int? {
        failures.withLock { failures in
            let keys = keys(email: email, address: address)
            return keys.compactMap { key, limit -> Int? in
                let recent = (failures[key] ?? []).filter { now - $0 < limits.window }
                failures[key] = recent.isEmpty ? nil : recent
                guard recent.count >= limit, let oldest = recent.first else { return nil }
                return max(1, Int((limits.window - (now - oldest)).components.seconds) + 1)
            }.max()
        }
    }

    func failed(email: String, address: String?, now: ContinuousClock.Instant = .now) {
        failures.withLock { failures in
            for (key, _) in keys(email: email, address: address) { failures[key, default: []].append(now) }
            if failures.count > 100_000 { failures = failures.filter { now - ($0.value.last ?? now) < limits.window } }
        }
    }

    func succeeded(email: String) {
        _ = failures.withLock { $0.removeValue(forKey: "account:\(email.lowercased())") }
    }

    private func keys(email: String, address: String?) -> [(String, Int)] {
        [("account:\(email.lowercased())", limits.perAccount)] + (address.map { [("address:\($0)", limits.perAddress)] } ?? [])
    }
}
