import Foundation
import PersonalData
import TestSupport
import Testing

/// The policy of ops/privacy.md: a key-store backup taken before an erasure still holds the erased
/// user's key, so a restore re-applies the erasures the log records before anything reads.
@Suite struct ErasureAndBackupTests {
    @Test func aRestoredBackupFromBeforeAnErasureLosesTheKeyAgainWhenTheLogsErasuresAreApplied() throws {
        let directory = try TemporaryDirectory()
        let masterKey = try randomMasterKey()
        let live = KeyStoreCipher(keys: try KeyStore(dataDirectory: directory.url.appendingPathComponent("data"), masterKey: masterKey))
        let erasedUsersName = try live.seal("Ada", owner: 7, field: "user-registered.name")
        let keptUsersName = try live.seal("Grace", owner: 8, field: "user-registered.name")
        let backup = directory.url.appendingPathComponent("backup-keys.sqlite")
        try live.keys.backup(to: backup.path)
        #expect(throws: KeyStore.Failure.backupDestinationExists(path: backup.path)) { try live.keys.backup(to: backup.path) }
        #expect((try FileManager.default.attributesOfItem(atPath: backup.path)[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        try live.keys.destroy(7)  // after the backup: the log now records user 7's erasure
        #expect(try live.open(erasedUsersName, owner: 7, field: "user-registered.name") == nil)
        try live.keys.close()

        let restoredDirectory = directory.url.appendingPathComponent("restored")
        try FileManager.default.createDirectory(at: restoredDirectory.appendingPathComponent("keys"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: backup, to: restoredDirectory.appendingPathComponent("keys/keys.sqlite"))
        let restored = KeyStoreCipher(keys: try KeyStore(dataDirectory: restoredDirectory, masterKey: masterKey))
        // What the erasures are for: the backup alone still reads the erased user.
        #expect(try restored.open(erasedUsersName, owner: 7, field: "user-registered.name") == "Ada")

        #expect(try restored.keys.applyErasures([.init(userId: 7, position: nil)]) == [7])
        #expect(try restored.open(erasedUsersName, owner: 7, field: "user-registered.name") == nil)
        #expect(try restored.open(keptUsersName, owner: 8, field: "user-registered.name") == "Grace")
        #expect(try restored.keys.applyErasures([.init(userId: 7, position: nil)]) == [], "applying them again on every open changes nothing")
        #expect(try restored.keys.applyErasures([.init(userId: 9, position: nil)]) == [9], "a user erased before they had a key")
        #expect(throws: KeyStore.Failure.keyDestroyed(userId: 9)) { try restored.seal("x", owner: 9, field: "c") }
    }

    @Test func aBackupTakenAfterAnErasureHoldsNoTraceOfTheKey() throws {
        let directory = try TemporaryDirectory()
        let store = try KeyStore(dataDirectory: directory.url, masterKey: randomMasterKey())
        _ = try store.key(for: 7, creating: true)
        let wrapped = try #require(try wrappedKey(of: 7, in: store.path))
        try store.destroy(7)
        let backup = directory.url.appendingPathComponent("backup.sqlite")
        try store.backup(to: backup.path)
        #expect(try Data(contentsOf: backup).range(of: wrapped) == nil)
    }
}
