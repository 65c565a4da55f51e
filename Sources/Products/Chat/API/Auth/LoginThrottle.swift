import ChatDomain
import Foundation
import NIOConcurrencyHelpers

/// Slows password guessing: at most `perAccount` failed logins for one email, or `perAddress` from
/// one client address, within `window`; further attempts for it are refused (429 with `Retry-After`)
/// until the oldest failure leaves the window, whether or not the password would be right.
///
/// An attempt is counted as a failure *before* its password is checked (`begin`) and taken back when
/// it succeeds (`succeeded`), so parallel guesses cannot all pass the check while none has failed
/// yet. Emails are keyed as logins compare them (trimmed, without case), so `" Demo@…"` is the same
/// account. A success clears the account's failures and its own attempt from the address's.
final class LoginThrottle: Sendable {
    struct Limits: Sendable, Equatable {
        var perAccount: Int
        var perAddress: Int
        var window: Duration
    }

    /// One counted attempt, to be taken back if it succeeds.
    private struct Attempt {
        let keys: [String]
        let at: ContinuousClock.Instant
    }

    private let limits: Limits
    private let failures = NIOLockedValueBox<[String: [ContinuousClock.Instant]]>([:])

    init(_ limits: Limits) {
        self.limits = limits
    }

    /// Checks a password under the throttle: refused (429) without checking when `email` or `address`
    /// has used its failures; otherwise the attempt counts as failed unless `check` finds the
    /// account, which is returned (a nil is `invalid_credentials`).
    func attempt<Account>(email: String, address: String?, _ check: () async throws -> Account?) async throws -> Account {
        let attempt = try begin(email: email, address: address)
        guard let account = try await check() else { throw ChatAPIError.invalidCredentials }
        succeeded(attempt)
        return account
    }

    /// Counts an attempt for `email` from `address`; or, when either has used its failures, throws
    /// 429 with the seconds until it may try again, counting nothing.
    private func begin(email: String, address: String?, now: ContinuousClock.Instant = .now) throws -> Attempt {
        let keys = keys(email: email, address: address)
        return try failures.withLockedValue { failures in
            let waits = keys.compactMap { key, limit -> Int? in
                let recent = (failures[key] ?? []).filter { now - $0 < limits.window }
                failures[key] = recent.isEmpty ? nil : recent
                guard recent.count >= limit, let oldest = recent.first else { return nil }
                return max(1, Int((limits.window - (now - oldest)).components.seconds) + 1)
            }
            if let wait = waits.max() {
                throw ChatAPIError.throttled(retryAfterSeconds: wait, "Too many failed logins for this account or from this address")
            }
            for (key, _) in keys { failures[key, default: []].append(now) }
            if failures.count > 100_000 { failures = failures.filter { now - ($0.value.last ?? now) < limits.window } }
            return Attempt(keys: keys.map(\.0), at: now)
        }
    }

    /// The attempt's password was right: the account starts afresh, and the address no longer
    /// counts this attempt.
    private func succeeded(_ attempt: Attempt) {
        failures.withLockedValue { failures in
            guard let account = attempt.keys.first else { return }
            failures[account] = nil
            for key in attempt.keys.dropFirst() {
                guard var times = failures[key], let index = times.lastIndex(of: attempt.at) else { continue }
                times.remove(at: index)
                failures[key] = times.isEmpty ? nil : times
            }
        }
    }

    private func keys(email: String, address: String?) -> [(String, Int)] {
        let account = (try? AccountRules.email(email)) ?? email.lowercased()
        return [("account:\(account)", limits.perAccount)] + (address.map { [("address:\($0)", limits.perAddress)] } ?? [])
    }
}
