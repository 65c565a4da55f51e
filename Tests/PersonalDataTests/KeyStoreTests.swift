import Crypto
import Foundation
import GRDB
import PersonalData
import NIOConcurrencyHelpers
import TestSupport
import Testing

@Suite struct KeyStoreTests {
    @Test func keysSurviveReopeningTheStoreInItsPrivateFile() throws {
        let directory = try TemporaryDirectory()
        let masterKey = try randomMasterKey()
        let store = try KeyStore(dataDirectory: directory.url, masterKey: masterKey)
        let created = try #require(try store.key(for: 7, creating: true))
        #expect(bytes(of: try store.key(for: 7, creating: true)) == bytes(of: created))
        #expect(try store.key(for: 8, creating: false) == nil)
        #expect(try !store.isDestroyed(8))
        try store.close()

        #expect(try permissions(of: directory.url.appendingPathComponent("keys").path) == 0o700)
        #expect(try permissions(of: keyStorePath(in: directory)) == 0o600)
        let reopened = try KeyStore(path: keyStorePath(in: directory), masterKey: masterKey)
        #expect(bytes(of: try reopened.key(for: 7, creating: false)) == bytes(of: created))
        #expect(try reopened.key(for: 8, creating: false) == nil)
    }

    @Test func wrappedKeysDoNotUnwrapUnderAnotherMasterKeyOrForAnotherUser() throws {
        let directory = try TemporaryDirectory()
        let masterKey = try randomMasterKey()
        let store = try KeyStore(path: keyStorePath(in: directory), masterKey: masterKey)
        _ = try store.key(for: 7, creating: true)
        _ = try store.key(for: 8, creating: true)
        try store.close()

        #expect(throws: KeyStore.Failure.wrongMasterKey(path: keyStorePath(in: directory))) {
            try KeyStore(path: keyStorePath(in: directory), masterKey: randomMasterKey())
        }

        // User 7's wrapped key copied onto user 8's row, and into a store under another master key.
        let otherMasterKey = try randomMasterKey()
        let other = try KeyStore(path: keyStorePath(in: directory, "other.sqlite"), masterKey: otherMasterKey)
        _ = try other.key(for: 7, creating: true)
        try other.close()
        let file = try DatabaseQueue(path: keyStorePath(in: directory))
        let wrapped = try file.read { db in try Data.fetchOne(db, sql: "SELECT wrapped FROM data_key WHERE user_id = 7") }
        try file.write { db in try db.execute(sql: "UPDATE data_key SET wrapped = ? WHERE user_id = 8", arguments: [wrapped]) }
        try file.close()
        let otherFile = try DatabaseQueue(path: keyStorePath(in: directory, "other.sqlite"))
        try otherFile.write { db in try db.execute(sql: "UPDATE data_key SET wrapped = ? WHERE user_id = 7", arguments: [wrapped]) }
        try otherFile.close()

        let moved = try KeyStore(path: keyStorePath(in: directory), masterKey: masterKey)
        #expect(try moved.key(for: 7, creating: false) != nil)
        #expect(throws: KeyStore.Failure.wrappedKeyUnreadable(userId: 8)) { try moved.key(for: 8, creating: false) }
        let underOtherMasterKey = try KeyStore(path: keyStorePath(in: directory, "other.sqlite"), masterKey: otherMasterKey)
        #expect(throws: KeyStore.Failure.wrappedKeyUnreadable(userId: 7)) { try underOtherMasterKey.key(for: 7, creating: false) }
    }

    @Test func aDestroyedKeyIsGoneFromTheCacheAndTheFileAndIsNeverMadeAgain() throws {
        let directory = try TemporaryDirectory()
        let masterKey = try randomMasterKey()
        let store = try KeyStore(path: keyStorePath(in: directory), masterKey: masterKey)
        _ = try store.key(for: 7, creating: true)
        _ = try store.key(for: 8, creating: true)
        let wrapped = try #require(try wrappedKey(of: 7, in: keyStorePath(in: directory)))

        try store.destroy(7)  // 7's key was cached by the lookup above
        #expect(try store.key(for: 7, creating: false) == nil)
        #expect(try store.isDestroyed(7))
        #expect(throws: KeyStore.Failure.keyDestroyed(userId: 7)) { try store.key(for: 7, creating: true) }
        #expect(try store.key(for: 8, creating: false) != nil)
        try store.destroy(7)

        for suffix in ["", "-wal"] {  // while the store is open, its WAL not yet removed by the last close
            let raw = (try? Data(contentsOf: URL(fileURLWithPath: keyStorePath(in: directory) + suffix))) ?? Data()
            #expect(raw.range(of: wrapped) == nil, "the wrapped key is still in keys.sqlite\(suffix)")
        }
        try store.close()
        let reopened = try KeyStore(path: keyStorePath(in: directory), masterKey: masterKey)
        #expect(try reopened.isDestroyed(7))
        #expect(throws: KeyStore.Failure.keyDestroyed(userId: 7)) { try reopened.key(for: 7, creating: true) }
    }

    @Test func concurrentFirstUsesOfOneUsersKeyMakeOneKey() throws {
        let directory = try TemporaryDirectory()
        let store = try KeyStore(path: keyStorePath(in: directory), masterKey: randomMasterKey())
        let seen = NIOLockedValueBox<Set<Data>>([])
        let failures = NIOLockedValueBox<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            do {
                let key = try store.key(for: 42, creating: true)
                seen.withLockedValue { _ = $0.insert(bytes(of: key) ?? Data()) }
            } catch {
                failures.withLockedValue { $0.append("\(error)") }
            }
        }
        #expect(failures.withLockedValue { $0 } == [])
        #expect(seen.withLockedValue { $0.count } == 1)
        let rows = try DatabaseQueue(path: keyStorePath(in: directory)).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM data_key") }
        #expect(rows == 1)
    }
}

private func permissions(of path: String) throws -> Int? {
    (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue
}

func wrappedKey(of userId: Int64, in path: String) throws -> Data? {
    let file = try DatabaseQueue(path: path)
    defer { try? file.close() }
    return try file.read { db in try Data.fetchOne(db, sql: "SELECT wrapped FROM data_key WHERE user_id = ?", arguments: [userId]) }
}
