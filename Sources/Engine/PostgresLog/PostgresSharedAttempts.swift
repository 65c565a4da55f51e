import EventLog
import Foundation
import PostgresNIO

/// Attempts every node counts (`attempt`, schema step 8): what a limit on failed logins needs when
/// a client's guesses reach several nodes. A count lost to a failover is a guess allowed again, not
/// a write lost, so these commits wait for nothing more than their own.
extension PostgresSharedLog {
    public func countAttempt(_ attempt: UUID, under keys: [String], limits: [Int], lasting: Duration) async throws -> AttemptRefusal? {
        let seconds = Double(lasting.components.seconds) + Double(lasting.components.attoseconds) / 1e18
        return try await bounded { [self] client in
            let rows = try await client.query(
                "SELECT wait, failed FROM attempt_counted(\(keys), \(limits.map(Int32.init(clamping:))), \(attempt), \(seconds))", logger: logger
            )
            for try await (wait, failed) in rows.decode((Double?, Bool?).self) {
                guard let wait else { return nil }
                return AttemptRefusal(wait: .milliseconds(Int64((max(wait, 0) * 1000).rounded(.up))), failed: failed ?? false)
            }
            return nil
        }
    }

    public func settleAttempt(_ attempt: UUID, under keys: [String]) async throws {
        try await bounded { [self] client in
            _ = try await client.query("UPDATE attempt SET checking = false WHERE id = \(attempt) AND key = ANY(\(keys))", logger: logger)
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
