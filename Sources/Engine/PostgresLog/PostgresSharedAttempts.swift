import Foundation
import PostgresNIO

/// Attempts every node counts (`attempt`, schema step 8): what a limit on failed logins needs when
/// a client's guesses reach several nodes. A count lost to a failover is a guess allowed again, not
/// a write lost, so these commits wait for nothing more than their own.
extension PostgresSharedLog {
    public func countAttempt(_ attempt: UUID, under keys: [String], limits: [Int], lasting: Duration) async throws -> Duration? {
        let seconds = Double(lasting.components.seconds) + Double(lasting.components.attoseconds) / 1e18
        return try await bounded { [self] client in
            let rows = try await client.query(
                "SELECT attempt_counted(\(keys), \(limits.map(Int32.init(clamping:))), \(attempt), \(seconds))", logger: logger
            )
            for try await wait in rows.decode(Double?.self) {
                return wait.map { Duration.milliseconds(Int64(($0 * 1000).rounded(.up))) }
            }
            return nil
        }
    }

    public func forgetAttempt(_ attempt: UUID, under keys: [String], withEveryAttemptUnder cleared: [String]) async throws {
        try await bounded { [self] client in
            _ = try await client.query(
                "DELETE FROM attempt WHERE (id = \(attempt) AND key = ANY(\(keys))) OR key = ANY(\(cleared))", logger: logger
            )
        }
    }
}
