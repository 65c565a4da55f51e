import EventLog
import EventSourcing
import Foundation
import Logging
import PersonalData
import ReadModels

/// A product's log, key store and read database, opened together over its own data directory
/// (claimed for the product first) and closed together after everything that uses them
/// (`StoresAndTheirWorkers`). Personal fields are sealed and opened with the key store's keys.
public struct ProductStores<Product: EventSourcedProduct>: Sendable {
    public let directory: DataDirectory
    public let log: EventLog
    public let keys: KeyStore
    public let readDatabase: ReadDatabase
    /// The log in the product's terms, sealing and opening personal fields.
    public let store: EventStore<Product.Catalog>
    /// Whether the server built over these stores closes them when it stops (`lent`).
    private(set) var closedByServer = true

    public var personalData: KeyStoreCipher { KeyStoreCipher(keys: keys) }
    /// Files users uploaded, sealed under their keys, in the data directory and, on a shared log, in it.
    public var uploadedFiles: SealedFiles { SealedFiles(root: directory.files, keys: keys, shared: log.sharedFiles, readOnly: log.isReadOnly) }

    /// Opens the stores and, unless `readOnly`, reconciles the key store with the log's erasures
    /// before anything reads a personal field (`reconcileErasures`). `keyStore` is the directory's
    /// own unless given (a past state served from a copy of the log reads the live keys, so that
    /// an erasure since holds there too). With `logURL`, the log is the shared one there, and the
    /// data directory's log this process's copy of it, caught up before this returns; without it, a
    /// directory that holds such a copy is refused unless `readOnly`.
    public static func open(
        directory: DataDirectory, masterKey: MasterKey, keyStore: String? = nil, initialLogMapSize: Int = 64 << 20,
        readOnly: Bool = false, logURL: String? = nil, logger: Logger
    ) async throws -> ProductStores {
        var shared: SharedStores?
        if let logURL {
            let opened = try await SharedLogSetting.open(logURL, for: Product.self)
            shared = opened
            if !readOnly, !FileManager.default.fileExists(atPath: directory.sharedLogMarker.path) {
                do { try await refuseALogOfItsOwn(in: directory, besides: opened.log) } catch {
                    opened.log.close()
                    throw error
                }
            }
        } else if !readOnly, let copied = try? String(contentsOf: directory.sharedLogMarker, encoding: .utf8) {
            throw SharedLogUnavailable(
                setting: "\(Product.environmentPrefix)_LOG_URL",
                reason: "\(directory.root.path) holds a node's copy of the shared log at \(copied.trimmingCharacters(in: .whitespacesAndNewlines)); "
                    + "give its URL (--log-url): written to alone, the copy would part from the log (to serve it alone all the same, remove \(directory.sharedLogMarker.path))"
            )
        }
        let stores: ProductStores
        do {
            stores = try ProductStores(
                directory: directory, masterKey: masterKey, keyStore: keyStore, initialLogMapSize: initialLogMapSize, readOnly: readOnly, shared: shared
            )
        } catch {
            shared?.log.close()
            throw error
        }
        do {
            if shared != nil {
                if !readOnly { try Data("\(stores.log.location)\n".utf8).write(to: directory.sharedLogMarker, options: .atomic) }
                try await stores.keys.joinShared()
                logger.info("copying the shared log", metadata: ["log": "\(stores.log.location)", "copy_head": "\(stores.log.headPosition)"])
                try await stores.copySharedLog(foldingMeanwhile: !readOnly, logger: logger)
                logger.info("the copy holds the shared log", metadata: ["head": "\(stores.log.headPosition)"])
            }
            guard !readOnly else { return stores }
            try await stores.reconcileErasures(logger: logger)
            try stores.uploadedFiles.removeErasedOwners()
            stores.keys.onKeysDestroyed { [root = directory.files] destruction in
                guard destruction.copiedFromShared else { return }
                do { try SealedFiles.removeCopies(of: destruction.userIds, under: root) } catch {
                    logger.error("could not remove erased users' files", metadata: ["users": "\(destruction.userIds)", "error": "\(error)"])
                }
            }
        } catch {
            stores.close()
            throw error
        }
        return stores
    }

    /// A directory that is no node's copy may hold a log of its own (an embedded deployment's), or more
    /// of one than was copied (by a `log-copy` beside its server): the shared log must hold its first
    /// and its last event where it does, or the directory would be taken for a copy whose history
    /// parted, and its node told to rebuild it, the only copy of those events. `log-copy` moves them.
    private static func refuseALogOfItsOwn(in directory: DataDirectory, besides shared: any SharedLog) async throws {
        guard FileManager.default.fileExists(atPath: directory.log.appendingPathComponent("data.mdb").path) else { return }
        let own = try EventLog(configuration: .init(directory: directory.log, readOnly: true))
        defer { own.close() }
        let head = own.headPosition
        guard head > 0, let first = try own.event(at: 1), let last = try own.event(at: head) else { return }
        let copy = "`\(Product.name) log-copy --to URL --data-dir \(directory.root.path)` (ops/postgresql.md, \"Moving a log that has history\")"
        let refusal: String
        if try await shared.eventId(at: 1) != first.id {
            refusal = "holds a log of its own (\(head) event\(head == 1 ? "" : "s")) that the shared log at \(shared.location) does not begin with. "
                + "To move it there, stop and run \(copy); a new node of the shared log needs a new data directory"
        } else if try await shared.eventId(at: head) != last.id {
            refusal = "holds events up to position \(head) that the shared log at \(shared.location) does not: written after a copy made beside "
                + "its server. To copy the rest, stop and run \(copy) again"
        } else {
            return
        }
        throw SharedLogUnavailable(setting: "\(Product.environmentPrefix)_LOG_URL", reason: "\(directory.root.path) \(refusal). Nothing was changed")
    }

    private init(
        directory: DataDirectory, masterKey: MasterKey, keyStore: String?, initialLogMapSize: Int, readOnly: Bool, shared: SharedStores?
    ) throws {
        if !readOnly {
            try StorageFullError.checkRoom(for: .eventLog, at: directory.log.path)
            try StorageFullError.checkRoom(for: .readModels, at: directory.read.path)
            try StorageFullError.checkRoom(for: .keyStore, at: directory.keys.path)
        }
        try directory.claim(for: Product.self)
        self.directory = directory
        keys = try KeyStore(path: keyStore ?? directory.keyStorePath, masterKey: masterKey, shared: shared?.keys)
        do {
            log = try EventLog(configuration: .init(
                directory: directory.log, initialMapSize: initialLogMapSize, readOnly: readOnly, shared: shared?.log,
                beforeCopy: { [keys] in try await keys.copyShared() }
            ))
        } catch {
            try? keys.close()
            throw error
        }
        do {
            readDatabase = try ReadDatabase(directory: directory.read, projections: Product.projections)
        } catch {
            log.close()
            try? keys.close()
            throw error
        }
        store = EventStore(log: log, personalData: KeyStoreCipher(keys: keys))
    }

    /// These stores as a server borrows them: it stops without closing them, and whoever lent them
    /// closes them. The live tests serve one directory's stores, read them between requests, and serve
    /// them again.
    public var lent: ProductStores {
        var lent = self
        lent.closedByServer = false
        return lent
    }

    public func runner(batchSize: Int = 2000, logger: Logger) throws -> ProjectionRunner<Product.Catalog> {
        try ProjectionRunner(
            log: log, personalData: personalData, database: readDatabase, projections: Product.projections, batchSize: batchSize, logger: logger
        )
    }

    /// In demo mode (`configuration.seedsDemo`): the product's demo recorded by `seed` (idempotent, its
    /// event ids derived, so a restart records nothing; it returns how many it recorded) and folded by
    /// `runner` before serving.
    public func seedDemo(
        _ what: String, when configuration: some ServerConfiguration, runner: ProjectionRunner<Product.Catalog>, logger: Logger,
        _ seed: () async throws -> Int
    ) async throws {
        guard configuration.seedsDemo else { return }
        let recorded = try await seed()
        if recorded > 0 { logger.info("seeded the demo", metadata: ["demo": "\(what)", "recorded": "\(recorded)"]) }
        try runner.catchUp()
    }

    public func close() {
        log.close()
        try? keys.close()
        try? readDatabase.close()
    }
}
