import Foundation
import NIOFoundationCompat
import PostgresNIO

/// Files every node reads (a user's upload, sealed), in `shared_file` beside the log (schema step 5),
/// so that `pg_dump` and the standby hold them with the events that name them.
extension PostgresSharedLog {
    public func storeFile(_ name: String, _ contents: Data) async throws {
        try await bounded(outcomeUnknown: true) { [self] client in
            _ = try await client.query(
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
        try await bounded(outcomeUnknown: true) { [self] client in
            _ = try await client.query("DELETE FROM shared_file WHERE name LIKE \(pattern)", logger: logger)
        }
    }
}
