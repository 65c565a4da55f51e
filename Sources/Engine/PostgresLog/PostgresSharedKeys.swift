import Foundation
import Logging
import PersonalData
import PostgresNIO

/// The product's key store in the log's database (`data_key`): one row per user, the wrapped key or,
/// once destroyed, the tombstone. Every change takes the next `sequence` under a transaction-scoped
/// advisory lock, as appends take positions, so a node copying changes in sequence order never skips
/// one. A destroyed key's old row version stays in the table's heap until vacuumed (asked for after
/// every destruction) and in the WAL and base backups until they expire: ops/privacy.md.
public struct PostgresSharedKeys: SharedKeys {
    static let changeLock: Int64 = 0x6B65_795F_6368_616E  // "key_chan"
    private let log: PostgresSharedLog
    private var logger: Logger { log.logger }

    public init(log: PostgresSharedLog) {
        self.log = log
    }

    public func claim(_ offered: [Int64: Data]) async throws -> [Int64: SharedKey] {
        let users = offered.keys.sorted()
        return try await changing { connection, sequence in
            for (offset, userId) in users.enumerated() {
                try await connection.query(
                    """
                    INSERT INTO data_key (user_id, wrapped, sequence) VALUES (\(userId), \(offered[userId] ?? Data()), \(sequence + Int64(offset) + 1))
                    ON CONFLICT (user_id) DO NOTHING
                    """,
                    logger: logger
                )
            }
            var held: [Int64: SharedKey] = [:]
            let rows = try await connection.query("SELECT user_id, wrapped, log_position FROM data_key WHERE user_id = ANY(\(users))", logger: logger)
            for try await (userId, wrapped, position) in rows.decode((Int64, Data?, Int64?).self) {
                held[userId] = wrapped.map { .live(wrapped: $0) } ?? .destroyed(position: position.map(UInt64.init))
            }
            return held
        }
    }

    public func destroy(_ erasures: [KeyStore.Erasure]) async throws {
        try await changing { connection, sequence in
            for (offset, erasure) in erasures.enumerated() {
                try await connection.query(
                    """
                    INSERT INTO data_key (user_id, wrapped, destroyed_at, log_position, sequence)
                    VALUES (\(erasure.userId), NULL, now(), \(erasure.position.map(Int64.init)), \(sequence + Int64(offset) + 1))
                    ON CONFLICT (user_id) DO UPDATE SET
                        wrapped = NULL, destroyed_at = coalesce(data_key.destroyed_at, now()),
                        log_position = coalesce(excluded.log_position, data_key.log_position), sequence = excluded.sequence
                    """,
                    logger: logger
                )
            }
        }
        // The destroyed keys' old row versions, out of the table now rather than at the next autovacuum.
        _ = try? await log.bounded { [logger] in try await $0.query("VACUUM data_key", logger: logger) }
    }

    public func changes(after sequence: Int64, limit: Int) async throws -> SharedKeyChanges {
        try await log.bounded { [logger] client in
            // One snapshot for both: the change asked after as recorded (its digest in `wrapped`), then the new ones.
            let rows = try await client.query(
                """
                SELECT user_id, digest, NULL::bigint, sequence, true FROM data_key_change WHERE sequence = \(sequence)
                UNION ALL
                (SELECT user_id, wrapped, log_position, sequence, false FROM data_key WHERE sequence > \(sequence) ORDER BY sequence LIMIT \(limit))
                ORDER BY 4
                """,
                logger: logger
            )
            var fetched = SharedKeyChanges(changes: [], asked: nil)
            for try await (userId, wrapped, position, sequence, asked) in rows.decode((Int64, Data?, Int64?, Int64, Bool).self) {
                if asked {
                    fetched.asked = SharedKeyMark(userId: userId, digest: wrapped)
                    continue
                }
                fetched.changes.append(SharedKeyChange(
                    sequence: sequence, userId: userId, key: wrapped.map { .live(wrapped: $0) } ?? .destroyed(position: position.map(UInt64.init))
                ))
            }
            return fetched
        }
    }

    public func masterKeyCheck(offering sealed: Data) async throws -> Data {
        try await log.bounded { [logger] client in
            try await client.query("INSERT INTO key_store_check (id, sealed) VALUES (1, \(sealed)) ON CONFLICT (id) DO NOTHING", logger: logger)
            for try await recorded in try await client.query("SELECT sealed FROM key_store_check WHERE id = 1", logger: logger).decode(Data.self) {
                return recorded
            }
            return sealed
        }
    }

    /// `body` in one transaction holding the change lock, with the last sequence taken so far.
    private func changing<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection, Int64) async throws -> T) async throws -> T {
        try await log.boundedWrite { [logger] client, committing in try await client.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.changeLock))", logger: logger)
            var last: Int64 = 0
            for try await sequence in try await connection.query("SELECT coalesce(max(sequence), 0) FROM data_key", logger: logger).decode(Int64.self) {
                last = sequence
            }
            let changed = try await body(connection, last)
            // What follows is the COMMIT: from here a failure may have saved it.
            try committing()
            return changed
        } }
    }
}
