import EventLog
import EventSourcing
import Foundation
import Metrics
import PersonalData
import ReadModels

/// Erasing a user's account: their data key destroyed, so everything personal they ever wrote reads
/// as absent (in the log, in every copy and backup of it, in every read model folded from it), and
/// a `user-erased` event on their stream, durable, for the projections and the audit.
///
/// The key goes first. A command of the user's racing the erasure either seals after it and is
/// refused (no key is made again for an erased user), or sealed before it and is folded, whenever it
/// lands, with its personal fields already unreadable: no read model ever holds them after the
/// erasure, and a replay folds the same. If the process stops between the two, the tombstone has no
/// log position yet, and the next start records the event (`ProductStores.reconcileErasures`).
///
/// It answers once the read models show the erasure, and then truncates the read database's WAL:
/// the deleted rows are zeroed in the file (`secure_delete`), but until a checkpoint the WAL still
/// holds their pages as they were, in clear. When readers hold it off past the busy timeout the
/// erasure stands all the same: a serving runner, on every node, truncates it after it folds an
/// erasure, and tries again until it can (`ProjectionRunner.truncateWALAfterErasures`).
public struct UserErasure<Product: EventSourcedProduct>: Sendable {
    public typealias Failure = UserErasureFailure

    let store: EventStore<Product.Catalog>
    let keys: KeyStore
    /// The user's uploads, if the product keeps any: deleted with the key, online or offline.
    let files: SealedFiles
    let readDatabase: ReadDatabase
    /// Offline only: the data directory's caches, deleted whole.
    let caches: URL?
    /// What killed operator commands left in the directory's scratch: removed with every erasure.
    let directory: DataDirectory
    /// Returns once the read models have folded up to the position given.
    let readModelsReach: @Sendable (UInt64) async throws -> Void
    private let erasures = Counter(label: "engine_user_erasures_total")

    /// In a server: waits for its runner (read-your-writes).
    public init(stores: ProductStores<Product>, readYourWrites: ReadYourWrites) {
        self.init(stores: stores) { try await readYourWrites.wait(for: $0) }
    }

    /// Offline: folds with `runner` itself, and deletes the product's caches (no server holds them),
    /// which may name the user.
    public init(stores: ProductStores<Product>, runner: ProjectionRunner<Product.Catalog>) {
        self.init(stores: stores, caches: stores.directory.cache) { _ in try runner.catchUp() }
    }

    private init(stores: ProductStores<Product>, caches: URL? = nil, readModelsReach: @escaping @Sendable (UInt64) async throws -> Void) {
        store = stores.store
        keys = stores.keys
        files = stores.uploadedFiles
        readDatabase = stores.readDatabase
        directory = stores.directory
        self.caches = caches
        self.readModelsReach = readModelsReach
    }

    /// Destroys the key, deletes the user's uploaded files, appends the erasure and waits for the
    /// read models; returns where the erasure is in the log.
    ///
    /// An erasure that stopped after destroying the key (its event not yet recorded) is resumed by
    /// asking again; one recorded is `alreadyErased`.
    public func erase(_ userId: Int64, initiator: UserErased.Initiator) async throws -> CommandResult {
        // A past state served read-only opens personal fields with the live key store: destroying a
        // key there would erase the live user, whose erasure this log cannot record.
        guard !store.log.isReadOnly else { throw EventLogError.readOnly }
        // In turn with every decision on the user's stream: two erasures at once record one event.
        let result = try await store.inTurn(on: Product.userStream(userId)) {
            let tombstone = try keys.erasure(of: userId)
            guard tombstone?.position == nil else { throw Failure.alreadyErased(userId) }
            guard try store.streamExists(Product.userStream(userId)) else { throw Failure.unknownUser(userId) }
            if tombstone == nil { try await keys.applyErasuresEverywhere([KeyStore.Erasure(userId: userId, position: nil)]) }
            // Nothing can open them once the key is gone; deleting them frees the space.
            try await files.removeAll(of: userId)
            directory.removeAbandonedScratch()
            let result = try await store.append(
                [Product.Catalog.userErased(UserErased(userId: userId, initiator: initiator))], to: Product.userStream(userId), eventId: .timeOrdered()
            )
            try await keys.recordErasurePositionsEverywhere([KeyStore.Erasure(userId: userId, position: result.position)])
            return result
        }
        erasures.increment()
        try await readModelsReach(result.position)
        try? await readDatabase.truncateWAL()
        if let caches, FileManager.default.fileExists(atPath: caches.path) { try FileManager.default.removeItem(at: caches) }
        return result
    }
}

public enum UserErasureFailure: Error, Equatable, Sendable {
    case unknownUser(Int64)
    case alreadyErased(Int64)
}
