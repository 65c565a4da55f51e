import Foundation
import NIOFoundationCompat
import PostgresNIO

/// Files every node reads (a user's upload, sealed), in `shared_file` beside the log (schema step 5),
/// so that `pg_dump` and the standby hold them with the events that name them.
extension PostgresSharedLog {
    public func storeFile(_ name: String, _ contents: Data) async throws {
        try await writing { [self] connection in
            _ = try await connection.query(
                "INSERT INTO shared_file (name, contents) VALUES (\(name), \(ByteBuffer(data: contents))) ON CONFLICT (name) DO NOTHING",
                logger: logger
            )
        }
    }

    public func file(_ name: String) async throws -> Data? {
        try await bounded { [self] client in
            let rows = try await client.query("SELECT contents FROM shared_file WHERE name = \(name)", logger: logger)
            for try await contents in rows.decode(Data.self) { return contents }
            return nil
        }
    }

    public func removeFiles(prefixed prefix: String) async throws {
        let pattern = prefix.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_") + "%"
        try await writing { [self] connection in
            _ = try await connection.query("DELETE FROM shared_file WHERE name LIKE \(pattern)", logger: logger)
        }
    }

    /// One statement, which commits on its own, on a connection of the primary's, answered once its
    /// commit is done (`waitForCommit`), as an append is.
    private func writing(_ statement: @escaping @Sendable (PostgresConnection) async throws -> Void) async throws {
        try await boundedWrite { [self] client, committing in
            try await client.withConnection { connection in
                try connection.requireOpen(at: location, "the connection")
                try committing()
                try await statement(connection)
                try await connection.waitForCommit(logger: logger)
            }
        }
    }
}
