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
    ///   recording the erasure: `UserErasure`; on a shared log, any node's) gets its `user-erased`, or
    ///   the position of the one already there;
    /// - when the key store has seen a longer log than this one (a log restored from before an
    ///   erasure, with the newest key store), every tombstone of a user the log knows and has no
    ///   `user-erased` for gets one, so the read models drop that user too.
    func reconcileErasures(logger: Logger) async throws {
        let head = log.headPosition
        let reconciled = try keys.reconciledThrough()
        let tombstones = try keys.erasures()
        // A tombstone past this log's head: the log was restored from before that erasure. A shared key
        // store and log are restored together (ops/postgresql.md): there it is an erasure this node's
        // copy of the log has not reached yet.
        let keyStoreIsAhead = !keys.isShared && (reconciled > head || tombstones.contains { ($0.position ?? 0) > head })
        let recorded = try Self.erasures(in: log, from: keyStoreIsAhead ? 1 : reconciled + 1, through: head)
        let inLog = Set(recorded.map(\.userId))
        var settled: [KeyStore.Erasure] = []
        var reRecorded = 0
        // On a shared log the erasing node may have stopped for good, so every node's start records
        // what it left, under one id: nodes starting together record it once. (An erasure under way on
        // another node at that instant may then be recorded twice: a second `user-erased` folds to nothing.)
        for tombstone in tombstones where (keyStoreIsAhead || tombstone.position == nil) && !inLog.contains(tombstone.userId) {
            let stream = Product.userStream(tombstone.userId)
            // A user this log never had (registered and erased after it was copied) has nothing to fold.
            guard try log.streamVersion(stream) > 0 else { continue }
            if let earlier = try log.readStream(stream).last(where: { $0.type == UserErased.typeName }) {
                settled.append(KeyStore.Erasure(userId: tombstone.userId, position: earlier.position))
                continue
            }
            let erasure = Product.Catalog.userErased(UserErased(userId: tombstone.userId, initiator: .keyStore))
            let result = try await store.append([erasure], to: stream, eventId: Product.Catalog.derivedEventId(from: "user-erased-by-key-store-\(tombstone.userId)"))
            settled.append(KeyStore.Erasure(userId: tombstone.userId, position: result.position))
            reRecorded += 1
        }
        // A shared store destroyed every key the log records an erasure of before it was recorded, and its
        // tombstone holds the position: destroying them again at every node's start would rewrite each
        // (one statement apiece, under one deadline), and every node would copy them again.
        let tombstoneAt = Dictionary(tombstones.map { ($0.userId, $0.position) }, uniquingKeysWith: { $1 })
        let unsettled = keys.isShared ? recorded.filter { tombstoneAt[$0.userId] != .some($0.position) } : recorded
        let destroyed = try await keys.applyErasuresEverywhere(unsettled, reconciledThrough: log.headPosition)
        try await keys.recordErasurePositionsEverywhere(unsettled + settled)
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
