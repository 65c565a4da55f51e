import EventLog
import EventSourcing
import Foundation
import Logging
import PersonalData
import ReadModels

extension ProductStores {
    /// Brings the key store into agreement with the log before anything reads a personal field:
    /// - every `user-erased` the log records past the key store's last reconciliation destroys its
    ///   user's key (again: after a restore, the key store may be older than the erasure);
    /// - a tombstone without a log position (the process stopped after destroying the key, before
    ///   recording the erasure: `UserErasure`) gets its `user-erased`, or the position of the one
    ///   already there;
    /// - when the key store has seen a longer log than this one (a log restored from before an
    ///   erasure, with the newest key store), every tombstone of a user the log knows and has no
    ///   `user-erased` for gets one, so the read models drop that user too.
    func reconcileErasures(logger: Logger) async throws {
        let head = log.headPosition
        let reconciled = try keys.reconciledThrough()
        let tombstones = try keys.erasures()
        // A tombstone past this log's head: the log was restored from before that erasure.
        let keyStoreIsAhead = reconciled > head || tombstones.contains { ($0.position ?? 0) > head }
        let recorded = try Self.erasures(in: log, from: keyStoreIsAhead ? 1 : reconciled + 1, through: head)
        let inLog = Set(recorded.map(\.userId))
        var settled: [KeyStore.Erasure] = []
        var reRecorded = 0
        // A shared key store and log are restored together (ops/postgresql.md), and a tombstone without
        // its event there may be another node's erasure under way: that node records it.
        for tombstone in tombstones where !keys.isShared && (keyStoreIsAhead || tombstone.position == nil) && !inLog.contains(tombstone.userId) {
            let stream = Product.userStream(tombstone.userId)
            // A user this log never had (registered and erased after it was copied) has nothing to fold.
            guard try log.streamVersion(stream) > 0 else { continue }
            if let earlier = try log.readStream(stream).last(where: { $0.type == UserErased.typeName }) {
                settled.append(KeyStore.Erasure(userId: tombstone.userId, position: earlier.position))
                continue
            }
            let erasure = Product.Catalog.userErased(UserErased(userId: tombstone.userId, initiator: .keyStore))
            let result = try await store.append([erasure], to: stream, eventId: .timeOrdered())
            settled.append(KeyStore.Erasure(userId: tombstone.userId, position: result.position))
            reRecorded += 1
        }
        let destroyed = try await keys.applyErasuresEverywhere(recorded, reconciledThrough: log.headPosition)
        try await keys.recordErasurePositionsEverywhere(recorded + settled)
        if !destroyed.isEmpty || !settled.isEmpty {
            logger.notice("key store reconciled with the log's erasures", metadata: [
                "keys_destroyed_again": "\(destroyed.count)", "erasures_recorded_again": "\(reRecorded)",
            ])
        }
    }

    /// The `user-erased` events in `from...through`, found by type name without decoding anything else.
    static func erasures(in log: EventLog, from: UInt64, through head: UInt64) throws -> [KeyStore.Erasure] {
        var erasures: [KeyStore.Erasure] = []
        var next = from
        while next <= head {
            let batch = try log.read(from: next, limit: Int(min(head - next + 1, 10_000)))
            guard let last = batch.last else { break }
            for record in batch where record.type == UserErased.typeName {
                let erased = try JSONDecoder().decode(UserErased.self, from: record.payload)
                erasures.append(KeyStore.Erasure(userId: erased.userId, position: record.position))
            }
            next = last.position + 1
            // A first start over a long log reads it all here: what is read once is not kept resident.
            log.releaseMappedPages()
        }
        return erasures
    }
}

extension DataDirectory {
    /// The master key that wraps the key store's keys: `configured` (the product's
    /// `<PRODUCT>_MASTER_KEY`, or the file `<PRODUCT>_MASTER_KEY_FILE` names), else in demo mode the
    /// one generated once into this directory (`demoMasterKey`), else an error naming the setting.
    public func masterKey<Product: EventSourcedProduct>(for product: Product.Type, configured: String?, demoMode: Bool) throws -> MasterKey {
        try MasterKey.resolve(
            value: configured, file: nil, named: "\(Product.environmentPrefix)_MASTER_KEY", demoMode: demoMode, demoFile: demoMasterKey
        )
    }
}
