import ChatDomain
import Crypto
import EventLog
import Foundation
import NIOConcurrencyHelpers

/// Slows password guessing: at most `perAccount` failed logins for one email, or `perAddress` from
/// one client address, within `window`; further attempts for it are refused (429 with `Retry-After`)
/// until the oldest failure leaves the window, whether or not the password would be right.
///
/// An attempt is counted as a failure *before* its password is checked (`begin`) and taken back when
/// it succeeds (`succeeded`), so parallel guesses cannot all pass the check while none has failed
/// yet. Refused while some of those counted are still being checked, a client is told to retry in a
/// second, not to wait out the window. Emails are keyed as logins compare them (trimmed, without
/// case), so `" Demo@…"` is the same account. A success clears the account's failures and its own
/// attempt from the address's. It keeps neither emails nor addresses, only keyed digests of them
/// (`digestKey`), and forgets every key whose attempts have all left the window, once a window.
///
/// On a shared log the attempts are counted there instead (`SharedAttempts`), under the same digests
/// (every node derives `digestKey` from the master key they share): a client spreading guesses over
/// nodes gets the limit once, not once a node. The rules are the same there.
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
    private let shared: SharedAttempts?
    private let digestKey: SymmetricKey
    /// Per key, the attempts counted in the window, settled or not, and how many are unsettled.
    private let failures = NIOLockedValueBox<(counted: [String: [ContinuousClock.Instant]], checking: [String: Int])>(([:], [:]))
    private let lastSweep = NIOLockedValueBox(ContinuousClock.now)

    init(_ limits: Limits, shared: SharedAttempts? = nil, digestKey: SymmetricKey = SymmetricKey(size: .bits256)) {
        self.limits = limits
        self.shared = shared
        self.digestKey = digestKey
    }

    /// Checks a password under the throttle: refused (429) without checking when `email` or `address`
    /// has used its failures; otherwise the attempt counts as failed unless `check` finds the
    /// account, which is returned (a nil is `invalid_credentials`). One that `check` could not judge
    /// (it threw: the hashing threads busy, the store failing) is not counted: a client retrying
    /// through a busy spell does not spend its account's failures, and learns nothing of the password.
    func attempt<Account>(email: String, address: String?, _ check: () async throws -> Account?) async throws -> Account {
        if let shared { return try await attemptCountedAmongNodes(shared, email: email, address: address, check) }
        let attempt = try begin(email: email, address: address)
        defer { settled(attempt) }
        let found: Account?
        do { found = try await check() } catch {
            withdraw(attempt, from: attempt.keys)
            throw error
        }
        guard let account = found else { throw ChatAPIError.invalidCredentials }
        succeeded(attempt)
        return account
    }

    /// `attempt` on a shared log: counted, refused, taken back and cleared there as `begin`,
    /// `withdraw` and `succeeded` do here.
    private func attemptCountedAmongNodes<Account>(
        _ shared: SharedAttempts, email: String, address: String?, _ check: () async throws -> Account?
    ) async throws -> Account {
        let keys = keys(email: email, address: address)
        let names = keys.map(\.0)
        let id = UUID()
        if let refusal = try await shared.count(id, under: keys.map { (key: $0.0, limit: $0.1) }, lasting: limits.window) {
            throw Self.refusal(retryAfter: refusal.failed ? refusal.wait : .zero, failed: refusal.failed)
        }
        // Once checked, whatever else fails here is only a count left behind, which expires (one
        // left `checking` meanwhile is a second's wait, not a failure): the answer is the check's.
        let found: Account?
        do { found = try await check() } catch {
            try? await shared.forget(id, under: names)
            throw error
        }
        guard let account = found else {
            try? await shared.settle(id, under: names)
            throw ChatAPIError.invalidCredentials
        }
        try? await shared.forget(id, under: names, withEveryAttemptUnder: Array(names.prefix(1)))
        return account
    }

    /// Counts an attempt for `email` from `address`; or, when either has used its failures, throws
    /// 429 with the seconds until it may try again, counting nothing.
    private func begin(email: String, address: String?, now: ContinuousClock.Instant = .now) throws -> Attempt {
        let keys = keys(email: email, address: address)
        return try failures.withLockedValue { failures in
            let waits = keys.compactMap { key, limit -> (wait: Duration, failed: Bool)? in
                let recent = (failures.counted[key] ?? []).filter { now - $0 < limits.window }
                failures.counted[key] = recent.isEmpty ? nil : recent
                guard recent.count >= limit, let oldest = recent.first else { return nil }
                guard recent.count - failures.checking[key, default: 0] >= limit else { return (.zero, false) }
                return (limits.window - (now - oldest), true)
            }
            if let longest = waits.max(by: { $0.wait < $1.wait }) { throw Self.refusal(retryAfter: longest.wait, failed: longest.failed) }
            for (key, _) in keys {
                failures.counted[key, default: []].append(now)
                failures.checking[key, default: 0] += 1
            }
            let sweeping = lastSweep.withLockedValue { last in
                guard now - last >= limits.window || failures.counted.count > 100_000 else { return false }
                last = now
                return true
            }
            if sweeping { failures.counted = failures.counted.filter { now - ($0.value.last ?? now) < limits.window } }
            return Attempt(keys: keys.map(\.0), at: now)
        }
    }

    /// The attempt's password has been checked, rightly or not.
    private func settled(_ attempt: Attempt) {
        failures.withLockedValue { failures in
            for key in attempt.keys {
                let left = failures.checking[key, default: 1] - 1
                failures.checking[key] = left > 0 ? left : nil
            }
        }
    }

    /// The attempt's password was right: the account starts afresh, and the address no longer
    /// counts this attempt.
    private func succeeded(_ attempt: Attempt) {
        guard let account = attempt.keys.first else { return }
        failures.withLockedValue { $0.counted[account] = nil }
        withdraw(attempt, from: attempt.keys.dropFirst())
    }

    /// `attempt` no longer counts for `keys`.
    private func withdraw(_ attempt: Attempt, from keys: some Sequence<String>) {
        failures.withLockedValue { failures in
            for key in keys {
                guard var times = failures.counted[key], let index = times.lastIndex(of: attempt.at) else { continue }
                times.remove(at: index)
                failures.counted[key] = times.isEmpty ? nil : times
            }
        }
    }

    /// 429, to be tried again once `retryAfter` has passed (a second at least).
    private static func refusal(retryAfter: Duration, failed: Bool) -> ChatAPIError {
        ChatAPIError.throttled(
            retryAfterSeconds: max(1, Int(retryAfter.components.seconds) + 1),
            failed ? "Too many failed logins for this account or from this address" : "Too many logins at once for this account or from this address"
        )
    }

    private func keys(email: String, address: String?) -> [(String, Int)] {
        let account = (try? AccountRules.email(email)) ?? email.lowercased()
        return [(digest("account:\(account)"), limits.perAccount)] + (address.map { [(digest("address:\($0)"), limits.perAddress)] } ?? [])
    }

    private func digest(_ key: String) -> String {
        HMAC<SHA256>.authenticationCode(for: Data(key.utf8), using: digestKey).prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    /// The keys it holds, for tests.
    var heldKeys: [String] { failures.withLockedValue { Array($0.counted.keys) } }
}
