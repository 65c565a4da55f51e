import Crypto
import EventLog
import EventSourcing
import Foundation
import GRDB
import NIOConcurrencyHelpers

/// Every user's data key, in a SQLite file of its own outside the log (`<data-dir>/keys/keys.sqlite`),
/// each wrapped by the master key with its user id as authenticated data, so a wrapped key copied
/// onto another user's row does not unwrap. Destroying a user's key is what erases their personal
/// fields from the log and from every copy of it (`KeyStoreCipher`; ops/privacy.md).
///
/// Unwrapped keys, and which users' keys are destroyed, are cached: a cached lookup costs one
/// uncontended lock, a miss one SQLite read and an unwrap. Writes go through the pool's one writer
/// connection, so concurrent first uses of one user's key make one key.
public final class KeyStore: Sendable {
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case wrongMasterKey(path: String)
        case keyDestroyed(userId: Int64)
        case wrappedKeyUnreadable(userId: Int64)
        case backupDestinationExists(path: String)

        public var description: String {
            switch self {
            case .wrongMasterKey(let path): "\(path) was written under another master key"
            case .keyDestroyed(let userId): "user \(userId)'s data key was destroyed (the user was erased): nothing personal is written for them again"
            case .wrappedKeyUnreadable(let userId): "user \(userId)'s wrapped data key does not unwrap: altered, or copied from another user's row"
            case .backupDestinationExists(let path): "\(path) exists; back the key store up into a new file"
            }
        }
    }

    /// A user's key as the file holds it.
    enum StoredKey: Sendable {
        case live(SymmetricKey)
        case destroyed
        case absent
    }

    public let path: String
    let pool: DatabasePool
    private let storageFull = StorageFullLatch()
    let masterKey: MasterKey
    let cache: NIOLockedValueBox<KeyCache>
    /// The store shared by every node of the product, when this is one node's copy of it.
    let shared: (any SharedKeys)?
    /// Told of every destruction (`onKeysDestroyed`).
    private let keysDestroyed = NIOLockedValueBox<[@Sendable (KeyDestruction) -> Void]>([])
    /// How long a truncation of the WAL that readers held off waits before it is tried again.
    let walRetryInterval: Duration
    let closed = NIOLockedValueBox(false)
    /// Whether a truncation of the WAL is waiting to be tried again (`truncateWALAfterDestruction`).
    let walTruncation = NIOLockedValueBox(false)

    /// A key for `purpose` derived from the master key: the same on every node that shares it, and
    /// no help in unwrapping a user's key. For digests a product keeps that must not be reversible
    /// by anyone who guesses what they digest (an email).
    public func derivedKey(for purpose: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: masterKey.key, info: Data("derived-key:\(purpose)".utf8), outputByteCount: 32)
    }

    /// The key store of a data directory: `keys/keys.sqlite` in it.
    public convenience init(dataDirectory: URL, masterKey: MasterKey, cachedKeys: Int = 10_000) throws {
        let path = dataDirectory.appendingPathComponent("keys").appendingPathComponent("keys.sqlite").path
        try self.init(path: path, masterKey: masterKey, cachedKeys: cachedKeys)
    }

    /// Opens the key store at `path`, creating it (mode 0600, in a directory of mode 0700) when absent.
    /// Throws `wrongMasterKey` when its keys were wrapped under another master key. With `shared`, it
    /// is this node's copy of that store (`joinShared`).
    public init(
        path: String, masterKey: MasterKey, cachedKeys: Int = 10_000, shared: (any SharedKeys)? = nil, walRetryInterval: Duration = .seconds(30)
    ) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        _ = try PrivateFile.createEmpty(at: path)
        let pool = try DatabasePool(path: path, configuration: KeyStoreSchema.configuration)
        do {
            try KeyStoreSchema.migrator.migrate(pool)
            try pool.write { db in try KeyStoreSchema.checkMasterKey(masterKey, db, path: path) }
        } catch {
            try? pool.close()
            throw error
        }
        self.path = path
        self.pool = pool
        self.masterKey = masterKey
        self.shared = shared
        self.walRetryInterval = walRetryInterval
        cache = NIOLockedValueBox(KeyCache(capacity: cachedKeys))
    }

    public func close() throws {
        closed.withLockedValue { $0 = true }
        truncatePendingWAL()
        try pool.close()
    }

    /// The disk under the file refused the last write, and since when (`/health`).
    public var storageFailure: (error: StorageFullError, since: Date)? { storageFull.current }

    /// A write to the file: a full disk is `StorageFullError`, as for every other store.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            let value = try pool.write(body)
            storageFull.recordSuccess()
            return value
        } catch let error as DatabaseError {
            guard let full = StorageFullError.sqlite(
                resultCode: error.resultCode.rawValue, extendedResultCode: error.extendedResultCode.rawValue, message: error.message, store: .keyStore, path: path
            ) else { throw error }
            storageFull.record(full)
            throw full
        }
    }

    /// `userId`'s data key. When they have none: with `creating`, a new one (stored before this
    /// returns), else nil. When it was destroyed: nil, or with `creating` `Failure.keyDestroyed`.
    public func key(for userId: Int64, creating: Bool) throws -> SymmetricKey? {
        switch try lookup(userId, creating: creating) {
        case .live(let key): return key
        case .destroyed where creating: throw Failure.keyDestroyed(userId: userId)
        case .destroyed, .absent: return nil
        }
    }

    /// How many times keys were destroyed through this store since it was opened, however they were
    /// (`applyErasures`, or a copy from the shared store).
    public var destructions: UInt64 {
        cache.withLockedValue { $0.destructions }
    }

    /// Calls `action` after each destruction, however it was made.
    public func onKeysDestroyed(_ action: @escaping @Sendable (KeyDestruction) -> Void) {
        keysDestroyed.withLockedValue { $0.append(action) }
    }

    /// Marks `userIds` destroyed in the cache, then tells whoever asked (`onKeysDestroyed`).
    func destroyedInCache(_ userIds: [Int64], copiedFromShared: Bool) {
        let count = cache.withLockedValue { cache in
            cache.destroyed(userIds)
            return cache.destructions
        }
        let destruction = KeyDestruction(count: count, userIds: userIds, copiedFromShared: copiedFromShared)
        for action in keysDestroyed.withLockedValue({ $0 }) { action(destruction) }
    }

    public func isDestroyed(_ userId: Int64) throws -> Bool {
        if case .destroyed = try lookup(userId, creating: false) { return true }
        return false
    }

    func lookup(_ userId: Int64, creating: Bool) throws -> StoredKey {
        let (cached, destructions) = cache.withLockedValue { ($0.entry(for: userId), $0.destructions) }
        if let cached { return cached }
        let stored = try creating ? readOrCreate(userId) : pool.read { db in try read(userId, db) }
        cache.withLockedValue { $0.keep(stored, for: userId, readBeforeDestructions: destructions) }
        return stored
    }

    /// Creates the keys of those of `userIds` who have none and were not erased, in one transaction:
    /// what an import sealing for thousands of new users does first, rather than one synced write each.
    public func createKeys(for userIds: Set<Int64>) throws {
        let unknown = cache.withLockedValue { cache in userIds.filter { cache.entry(for: $0) == nil } }
        guard !unknown.isEmpty else { return }
        let destructions = cache.withLockedValue { $0.destructions }
        let created = try write { db in
            try unknown.compactMap { userId -> (Int64, StoredKey)? in
                let stored = try read(userId, db)
                guard case .absent = stored else { return (userId, stored) }
                guard shared == nil else { throw KeyNotPrepared(owner: userId) }
                let key = SymmetricKey(size: .bits256)
                try insert(key, for: userId, db)
                return (userId, .live(key))
            }
        }
        cache.withLockedValue { cache in
            for (userId, stored) in created { cache.keep(stored, for: userId, readBeforeDestructions: destructions) }
        }
    }

    private func insert(_ key: SymmetricKey, for userId: Int64, _ db: Database) throws {
        try db.execute(
            sql: "INSERT INTO data_key (user_id, wrapped, created_at) VALUES (?, ?, ?)",
            arguments: [userId, try KeyWrapping.wrap(key, for: userId, under: masterKey), Date()]
        )
    }

    private func readOrCreate(_ userId: Int64) throws -> StoredKey {
        try write { db in
            let stored = try read(userId, db)
            guard case .absent = stored else { return stored }
            guard shared == nil else { throw KeyNotPrepared(owner: userId) }
            let key = SymmetricKey(size: .bits256)
            try insert(key, for: userId, db)
            return .live(key)
        }
    }

    func read(_ userId: Int64, _ db: Database) throws -> StoredKey {
        let row = try Row.fetchOne(
            db,
            sql: """
                SELECT (SELECT wrapped FROM data_key WHERE user_id = ?1) AS wrapped,
                       EXISTS (SELECT 1 FROM destroyed_key WHERE user_id = ?1) AS destroyed
                """,
            arguments: [userId]
        )
        if let wrapped: Data = row?["wrapped"] {
            return .live(try KeyWrapping.unwrap(wrapped, for: userId, under: masterKey))
        }
        let destroyed: Bool = row?["destroyed"] ?? false
        return destroyed ? .destroyed : .absent
    }
}

/// The unwrapped keys and destructions the store has seen, least recently used first out.
struct KeyCache: Sendable {
    enum Entry: Sendable {
        case live(SymmetricKey)
        case destroyed
    }

    private var entries: LRUCache<Int64, Entry>
    /// Counts destructions, so a key read from the file before one is not cached after it: the
    /// destruction's own entry must win even when it lands between the read and the keep.
    private(set) var destructions: UInt64 = 0

    init(capacity: Int) {
        entries = LRUCache(capacity: capacity)
    }

    mutating func entry(for userId: Int64) -> KeyStore.StoredKey? {
        switch entries.value(for: userId) {
        case .live(let key): .live(key)
        case .destroyed: .destroyed
        case nil: nil
        }
    }

    /// Keeps what a lookup read, unless a destruction came since. An absent key is not kept: it may
    /// be created any moment, and a stale absence would read the user's fields as erased.
    mutating func keep(_ stored: KeyStore.StoredKey, for userId: Int64, readBeforeDestructions count: UInt64) {
        guard count == destructions else { return }
        switch stored {
        case .live(let key): entries.set(.live(key), for: userId)
        case .destroyed: entries.set(.destroyed, for: userId)
        case .absent: break
        }
    }

    mutating func destroyed(_ userIds: [Int64]) {
        destructions += 1
        for userId in userIds { entries.set(.destroyed, for: userId) }
    }
}

/// Keys destroyed, as the key store tells it (`KeyStore.onKeysDestroyed`).
public struct KeyDestruction: Sendable {
    /// The store's `destructions` with this one counted.
    public var count: UInt64
    public var userIds: [Int64]
    /// Copied from the shared store: these users were erased through another node, and whatever
    /// this node keeps of them beside the key (their files' copies) can go at once.
    public var copiedFromShared: Bool
}

extension StorageFullError.Store {
    public static let keyStore = StorageFullError.Store(rawValue: "key_store", title: "the key store (SQLite)")
}
