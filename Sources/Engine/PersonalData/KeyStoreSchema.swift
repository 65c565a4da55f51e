import Crypto
import Foundation
import GRDB

/// The key store's file: its tables, its connections' settings, and the check that it is opened
/// under the master key its keys were wrapped with.
enum KeyStoreSchema {
    static let busyTimeoutMilliseconds = 5_000

    static var configuration: Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(Double(busyTimeoutMilliseconds) / 1_000)
        configuration.maximumReaderCount = 4
        configuration.prepareDatabase { db in
            // Every commit synced: a key lost on power loss would leave the events already sealed
            // under it unreadable, and an erasure lost would bring the user's data back.
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // A deleted wrapped key is overwritten with zeros, not left in a free page.
            try db.execute(sql: "PRAGMA secure_delete = ON")
        }
        return configuration
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("keyStore.v1") { db in
            try db.execute(sql: """
                CREATE TABLE data_key (user_id INTEGER PRIMARY KEY, wrapped BLOB NOT NULL, created_at DATETIME NOT NULL);
                CREATE TABLE destroyed_key (user_id INTEGER PRIMARY KEY, destroyed_at DATETIME NOT NULL);
                CREATE TABLE master_key_check (id INTEGER PRIMARY KEY CHECK (id = 1), sealed BLOB NOT NULL);
                """)
        }
        migrator.registerMigration("keyStore.v2: erasures reconciled with the log") { db in
            try db.execute(sql: """
                ALTER TABLE destroyed_key ADD COLUMN log_position INTEGER;
                CREATE TABLE reconciliation (id INTEGER PRIMARY KEY CHECK (id = 1), log_position INTEGER NOT NULL);
                """)
        }
        migrator.registerMigration("keyStore.v3: a node's copy of a shared key store") { db in
            try db.execute(sql: "CREATE TABLE shared_copy (id INTEGER PRIMARY KEY CHECK (id = 1), sequence INTEGER NOT NULL)")
        }
        migrator.registerMigration("keyStore.v4: the last change copied, checked at the next copy") { db in
            try db.execute(sql: """
                ALTER TABLE shared_copy ADD COLUMN user_id INTEGER;
                ALTER TABLE shared_copy ADD COLUMN digest BLOB;
                """)
        }
        return migrator
    }

    static let masterKeyCheck = "master-key-check"

    /// Records a value sealed under `masterKey` in a new file; in one that has it, opens it, so a
    /// store opened under another master key fails here rather than at every user's first read.
    static func checkMasterKey(_ masterKey: MasterKey, _ db: Database, path: String) throws {
        guard let sealed = try Data.fetchOne(db, sql: "SELECT sealed FROM master_key_check WHERE id = 1") else {
            let sealed = try SealedBytes.seal(Data(), with: masterKey.key, authenticating: masterKeyCheck)
            try db.execute(sql: "INSERT INTO master_key_check (id, sealed) VALUES (1, ?)", arguments: [sealed])
            return
        }
        do {
            _ = try SealedBytes.open(sealed, with: masterKey.key, authenticating: masterKeyCheck)
        } catch {
            throw KeyStore.Failure.wrongMasterKey(path: path)
        }
    }
}

/// A data key sealed under the master key, authenticated with its user's id.
enum KeyWrapping {
    static func wrap(_ key: SymmetricKey, for userId: Int64, under masterKey: MasterKey) throws -> Data {
        try key.withUnsafeBytes { try SealedBytes.seal(Data($0), with: masterKey.key, authenticating: context(userId)) }
    }

    static func unwrap(_ wrapped: Data, for userId: Int64, under masterKey: MasterKey) throws -> SymmetricKey {
        do {
            return SymmetricKey(data: try SealedBytes.open(wrapped, with: masterKey.key, authenticating: context(userId)))
        } catch {
            throw KeyStore.Failure.wrappedKeyUnreadable(userId: userId)
        }
    }

    private static func context(_ userId: Int64) -> String { "data-key/\(userId)" }
}
