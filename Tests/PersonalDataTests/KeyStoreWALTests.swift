import Foundation
import GRDB
import PersonalData
import TestSupport
import Testing

/// A reader holding the key store's WAL past the busy timeout (a `backup-keys` of a large store) does
/// not fail a destruction once the key is gone (the erasure then never recorded its event, and the
/// read models kept the user): the destruction answers without waiting for the reader, and the WAL
/// is truncated once the reader ends.
@Suite(.timeLimit(.minutes(1))) struct KeyStoreWALTests {
    @Test func aDestructionAnswersWhileAReaderHoldsTheWALWhichIsTruncatedOnceItEnds() async throws {
        let directory = try TemporaryDirectory()
        let path = keyStorePath(in: directory)
        let keys = try KeyStore(path: path, masterKey: try randomMasterKey(), walRetryInterval: .milliseconds(200))
        defer { try? keys.close() }
        _ = try keys.key(for: 7, creating: true)
        var held = Configuration()
        held.allowsUnsafeTransactions = true
        let reader = try DatabaseQueue(path: path, configuration: held)
        try reader.inDatabase { db in
            try db.beginTransaction(.deferred)
            _ = try Row.fetchAll(db, sql: "SELECT user_id FROM data_key")
        }

        let started = ContinuousClock.now
        #expect(try keys.applyErasures([.init(userId: 7, position: nil)]) == [7])
        #expect(ContinuousClock.now - started < .seconds(4), "the destruction waited for the reader (the busy timeout is 5 s)")
        // Another key is made meanwhile, as a sign-up's is: the writer's queue is not held waiting.
        _ = try keys.key(for: 8, creating: true)
        #expect(try keys.isDestroyed(7))
        let wal = path + "-wal"
        #expect(Self.size(of: wal) > 0, "the reader held the WAL: the test shows nothing")
        try reader.inDatabase { db in try db.commit() }
        try reader.close()
        for _ in 0..<50 where Self.size(of: wal) > 0 { try await Task.sleep(for: .milliseconds(100)) }
        #expect(Self.size(of: wal) == 0)
    }

    private static func size(of path: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    }
}
