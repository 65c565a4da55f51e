import EventLog
import EventSourcing
import Foundation
import Logging
import PersonalData
import ReadModels

/// The one-time upgrade of a data directory whose log was written before personal fields were
/// sealed: a new data directory whose log holds every event at the same position, with the same id,
/// time and actor (and stream version, but where two identity streams become one), each payload re-encoded in its current schema with its personal
/// fields sealed, and identity streams named after their subject renamed to its hash (`SignInIdentity`). Its key store
/// starts as a copy of the old one. The read models folded from the new log are compared, table by
/// table, with those folded from the old: the upgrade is good only if they are identical.
///
/// The old directory is left as it was; the operator swaps the new one in and then destroys the old
/// one and every backup of it, which are the only places the clear values remain (ops/privacy.md).
public enum LogSealing {
    public struct Report: Sendable {
        public var events: UInt64
        public var renamedStreams: Int
        public var tables: Int
        public var differences: [String]
        public var isIdentical: Bool { differences.isEmpty }
    }

    public enum Failure: Error, CustomStringConvertible {
        case targetNotEmpty(String)

        public var description: String {
            switch self {
            case .targetNotEmpty(let path): "\(path) exists and is not empty; seal into a new directory"
            }
        }
    }

    public static func run<Product: EventSourcedProduct>(
        _ product: Product.Type, from source: DataDirectory, into targetURL: URL, masterKey: MasterKey, scratch: URL, logger: Logger
    ) async throws -> Report {
        let files = FileManager.default
        if let existing = try? files.contentsOfDirectory(atPath: targetURL.path), !existing.isEmpty { throw Failure.targetNotEmpty(targetURL.path) }
        let target = DataDirectory(targetURL)
        try files.createDirectory(at: targetURL, withIntermediateDirectories: true)
        // Not what holds the old log or its read models in clear: the console's backups, the commands'
        // scratch, Nuvie's recommendation cache (started empty on every start).
        let left = [source.log, source.read, source.keys, source.serverPidFile, source.backups, source.scratch, source.cache].map(\.lastPathComponent)
        for name in try files.contentsOfDirectory(atPath: source.root.path) where !left.contains(name) {
            try files.copyItem(at: source.root.appendingPathComponent(name), to: targetURL.appendingPathComponent(name))
        }
        if files.fileExists(atPath: source.keyStorePath) { try KeyStore.backup(fileAt: source.keyStorePath, to: target.keyStorePath) }
        let keys = try KeyStore(path: target.keyStorePath, masterKey: masterKey)
        defer { try? keys.close() }
        let personalData = KeyStoreCipher(keys: keys)

        let old = try EventLog(configuration: .init(directory: source.log, readOnly: true))
        defer { old.close() }
        let new = try EventLog(configuration: .init(directory: target.log, initialMapSize: max(old.mapSize, 64 << 20)))
        defer { new.close() }
        var renamed = Set<String>()
        // Each stream's version in the new log: a renamed identity stream can meet the hashed stream
        // of the same identity (its user erased, then signed up again), so versions are counted anew.
        var versions: [String: UInt64] = [:]
        while new.headPosition < old.headPosition {
            let batch = try old.read(from: new.headPosition + 1, limit: 5_000)
            try await personalData.prepareKeys(for: Set(batch.compactMap(\.actorUserId)))
            _ = try await new.append(try batch.map { record in
                let event = try Product.Catalog.decode(record, personalData: personalData)
                let stream = SignInIdentity.sealedName(of: record.streamId)
                if stream != record.streamId { renamed.insert(record.streamId) }
                let encoded = try Product.Catalog.encode(event.event, with: personalData.encoder(owner: record.actorUserId))
                let version = try versions[stream] ?? new.streamVersion(stream)
                versions[stream] = version + 1
                return StreamAppend(streamId: stream, expectedVersion: .exact(version), events: [NewEvent(
                    id: record.id, type: encoded.type, schemaVersion: encoded.schemaVersion, actorUserId: record.actorUserId,
                    userIds: record.userIds, recordedAt: record.recordedAt, payload: encoded.payload
                )])
            })
        }

        let fromNew = try ReadDatabase(directory: target.read, projections: Product.projections)
        defer { try? fromNew.close() }
        try ProjectionRunner<Product.Catalog>(log: new, personalData: personalData, database: fromNew, projections: Product.projections, logger: logger)
            .catchUp()
        let fromOld = try ReadDatabase(path: scratch.appendingPathComponent("read.sqlite").path, projections: Product.projections)
        defer { try? fromOld.close() }
        try ProjectionRunner<Product.Catalog>(log: old, personalData: personalData, database: fromOld, projections: Product.projections, logger: logger)
            .catchUp()
        let (newTables, oldTables) = (try fromNew.tableDumps(), try fromOld.tableDumps())
        let differences = Set(newTables.keys).union(oldTables.keys).filter { newTables[$0] != oldTables[$0] }.sorted()
        return Report(events: new.headPosition, renamedStreams: renamed.count, tables: newTables.count, differences: differences)
    }
}
