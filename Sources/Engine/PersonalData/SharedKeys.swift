import Crypto
import EventLog
import Foundation
import GRDB

/// The key store the nodes of one product share (PostgreSQL, in `PostgresLog`): which user has which
/// wrapped data key, and who was erased. It is the authority; each node's `KeyStore` file is its
/// copy, so sealing and opening stay local reads. Keys are wrapped under the master key, which every
/// node of a product must share (`checkMasterKey`).
public protocol SharedKeys: Sendable {
    /// Offers a wrapped key for each user; the first offer for a user wins, on any node. Returns what
    /// each user holds afterwards: their key (this offer or an earlier one), or their erasure.
    func claim(_ offered: [Int64: Data]) async throws -> [Int64: SharedKey]

    /// Destroys these users' keys everywhere (tombstones, also for users who never had one), and
    /// records or updates where the log holds their erasures.
    func destroy(_ erasures: [KeyStore.Erasure]) async throws

    /// The first `limit` keys and erasures recorded or changed after `sequence`, in order: never with a
    /// gap, since a change becomes readable only after every earlier one; and what the store recorded as
    /// its change `sequence`, which a node that copied it compares with what it took.
    func changes(after sequence: Int64, limit: Int) async throws -> SharedKeyChanges

    /// Records `sealed` (a value sealed under this node's master key) when nothing is recorded yet,
    /// else returns the recorded one, which this node must be able to open.
    func masterKeyCheck(offering sealed: Data) async throws -> Data
}

public enum SharedKey: Sendable, Equatable {
    case live(wrapped: Data)
    case destroyed(position: UInt64?)
}

extension SharedKey {
    /// What a change records of the key: a digest of the wrapped key (nothing to unwrap), or nil once destroyed.
    public var digest: Data? {
        guard case .live(let wrapped) = self else { return nil }
        return Data(SHA256.hash(data: wrapped))
    }
}

public struct SharedKeyChange: Sendable, Equatable {
    public var sequence: Int64
    public var userId: Int64
    public var key: SharedKey

    public init(sequence: Int64, userId: Int64, key: SharedKey) {
        self.sequence = sequence
        self.userId = userId
        self.key = key
    }

    public var mark: SharedKeyMark { SharedKeyMark(userId: userId, digest: key.digest) }
}

/// What a shared store recorded as one change, kept as long as the store: whose key, and its digest.
public struct SharedKeyMark: Sendable, Equatable {
    public var userId: Int64
    public var digest: Data?

    public init(userId: Int64, digest: Data?) {
        self.userId = userId
        self.digest = digest
    }
}

public struct SharedKeyChanges: Sendable {
    public var changes: [SharedKeyChange]
    /// The change at the sequence asked after, as the store recorded it; nil when it holds none there.
    public var asked: SharedKeyMark?

    public init(changes: [SharedKeyChange], asked: SharedKeyMark?) {
        self.changes = changes
        self.asked = asked
    }
}

extension KeyStore {
    /// True when this store is a node's copy of a shared one: keys are then made only through it.
    public var isShared: Bool { shared != nil }

    /// Checks the shared store holds keys wrapped under this master key, then copies what it holds.
    public func joinShared() async throws {
        guard let shared else { return }
        let offered = try SealedBytes.seal(Data(), with: masterKey.key, authenticating: KeyStoreSchema.masterKeyCheck)
        let recorded = try await shared.masterKeyCheck(offering: offered)
        do {
            _ = try SealedBytes.open(recorded, with: masterKey.key, authenticating: KeyStoreSchema.masterKeyCheck)
        } catch {
            throw Failure.wrongMasterKey(path: "the shared key store (every node of a product needs the same master key)")
        }
        try await copyShared()
    }

    /// Brings this copy up to the shared store: new keys kept, destroyed ones deleted here too (and
    /// from the cache), so a user erased on another node reads as erased here. The event log's copy
    /// calls this before it copies each batch of events, so no event reaches this node before the
    /// key or the erasure it was written under.
    ///
    /// Throws `EventLogError.copiedStateParted` when the store no longer holds what this copy took from
    /// it (a standby promoted without every commit): the last change copied, or a user's key. The
    /// store may then have given the lost changes' sequences to others, which a copy by sequence skips,
    /// and a key this node holds may seal what no other node can open.
    ///
    /// A page of `pageSize` changes at a time, each kept before the next is asked for: a new node's
    /// first copy of a large store is many quick queries that each make progress, not one that must
    /// fetch every user's key within one deadline, and starts over after it.
    public func copyShared(pageSize: Int = 10_000) async throws {
        guard let shared else { return }
        while try await copySharedPage(from: shared, pageSize: pageSize) == pageSize {}
    }

    /// One page of `copyShared`; how many changes it copied.
    private func copySharedPage(from shared: any SharedKeys, pageSize: Int) async throws -> Int {
        let copied = try await pool.read { db in try Row.fetchOne(db, sql: "SELECT sequence, user_id, digest FROM shared_copy WHERE id = 1") }
        let after: Int64 = copied?["sequence"] ?? 0
        let fetched = try await shared.changes(after: after, limit: pageSize)
        if let copied, let userId = copied["user_id"] as Int64?, fetched.asked != SharedKeyMark(userId: userId, digest: copied["digest"]) {
            throw EventLogError.copiedStateParted(reason: "the shared key store no longer holds the change \(after) (user \(userId)'s key) that this node copied from it")
        }
        guard let last = fetched.changes.last else { return 0 }
        let destroyed = try await pool.write { db in
            var destroyed: [Int64] = []
            for change in fetched.changes {
                if try Self.keep(change.key, for: change.userId, db) { destroyed.append(change.userId) }
            }
            try db.execute(
                sql: """
                    INSERT INTO shared_copy (id, sequence, user_id, digest) VALUES (1, ?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET sequence = excluded.sequence, user_id = excluded.user_id, digest = excluded.digest
                    """,
                arguments: [last.sequence, last.userId, last.key.digest]
            )
            return destroyed
        }
        if !destroyed.isEmpty {
            destroyedInCache(destroyed, copiedFromShared: true)
            truncateWALAfterDestruction()
        }
        return fetched.changes.count
    }

    /// Moves this file's keys and erasures into `shared` (a product leaving the embedded log for a
    /// shared one): the same wrapped keys, so every value sealed in the log still opens. Refuses a
    /// shared store written under another master key, or holding another key for one of these users.
    /// Safe to run again.
    public func copy(into shared: any SharedKeys) async throws -> (keys: Int, erasures: Int) {
        let offered = try SealedBytes.seal(Data(), with: masterKey.key, authenticating: KeyStoreSchema.masterKeyCheck)
        do {
            _ = try SealedBytes.open(try await shared.masterKeyCheck(offering: offered), with: masterKey.key, authenticating: KeyStoreSchema.masterKeyCheck)
        } catch {
            throw Failure.wrongMasterKey(path: "the shared key store (copy the keys with the master key the log was sealed under)")
        }
        let (wrapped, erasures) = try await pool.read { db in
            (
                try Row.fetchAll(db, sql: "SELECT user_id, wrapped FROM data_key ORDER BY user_id").map { ($0["user_id"] as Int64, $0["wrapped"] as Data) },
                try Row.fetchAll(db, sql: "SELECT user_id, log_position FROM destroyed_key ORDER BY user_id").map { row in
                    Erasure(userId: row["user_id"], position: (row["log_position"] as Int64?).map(UInt64.init))
                }
            )
        }
        for start in stride(from: 0, to: wrapped.count, by: 1_000) {
            let batch = Dictionary(uniqueKeysWithValues: wrapped[start..<min(start + 1_000, wrapped.count)].map { ($0.0, $0.1) })
            for (userId, held) in try await shared.claim(batch) {
                switch held {
                case .live(let key) where key == batch[userId]: continue
                case .live: throw SharedKeysConflict(userId: userId, reason: "the shared store holds another key for this user")
                case .destroyed: throw SharedKeysConflict(userId: userId, reason: "the shared store has this user erased, this file does not")
                }
            }
        }
        if !erasures.isEmpty { try await shared.destroy(erasures) }
        return (wrapped.count, erasures.count)
    }

    /// Makes sure these users have data keys before anything seals for them: with a shared store,
    /// claimed there (agreed with every node); else created here, in one write for all.
    public func prepareKeys(for userIds: Set<Int64>) async throws {
        if let shared { try await claimShared(for: userIds, shared) } else { try createKeys(for: userIds) }
    }

    /// Destroys these users' keys in the shared store first (every node then drops them: `copyShared`),
    /// then here; see `applyErasures`.
    @discardableResult
    public func applyErasuresEverywhere(_ erasures: [Erasure], reconciledThrough: UInt64? = nil) async throws -> [Int64] {
        if let shared, !erasures.isEmpty { try await shared.destroy(erasures) }
        return try applyErasures(erasures, reconciledThrough: reconciledThrough)
    }

    /// `recordErasurePositions`, in the shared store too.
    public func recordErasurePositionsEverywhere(_ erasures: [Erasure]) async throws {
        if let shared, !erasures.isEmpty { try await shared.destroy(erasures) }
        try recordErasurePositions(erasures)
    }

    private func claimShared(for userIds: Set<Int64>, _ shared: any SharedKeys) async throws {
        let uncached = cache.withLockedValue { cache in userIds.filter { cache.entry(for: $0) == nil } }
        let unknown = try await pool.read { db in
            try uncached.filter { userId in
                if case .absent = try read(userId, db) { return true }
                return false
            }
        }
        guard !unknown.isEmpty else { return }
        var offered: [Int64: Data] = [:]
        for userId in unknown { offered[userId] = try KeyWrapping.wrap(SymmetricKey(size: .bits256), for: userId, under: masterKey) }
        let held = try await shared.claim(offered)
        try await pool.write { db in
            for (userId, key) in held { try Self.keep(key, for: userId, db) }
        }
    }
}

extension KeyStore {
    /// What the shared store holds for a user, kept in this copy: a key this copy lacks, or the
    /// user's erasure (their key deleted here too, the erasure's log position recorded when known).
    /// Keeps a change copied from the shared store; true when it destroys a key this copy did not
    /// know destroyed (a later change that only records the erasure's log position is not one). A key
    /// unlike the one held here, or for a user erased here, is one the store lost and gave again.
    fileprivate static func keep(_ key: SharedKey, for userId: Int64, _ db: Database) throws -> Bool {
        switch key {
        case .live(let wrapped):
            let held = try Data.fetchOne(db, sql: "SELECT wrapped FROM data_key WHERE user_id = ?", arguments: [userId])
            let erased = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM destroyed_key WHERE user_id = ?)", arguments: [userId]) ?? false
            if erased || (held != nil && held != wrapped) {
                throw EventLogError.copiedStateParted(
                    reason: "the shared key store holds another key for user \(userId) than this node \(erased ? "erased" : "holds")"
                )
            }
            try db.execute(
                sql: "INSERT INTO data_key (user_id, wrapped, created_at) VALUES (?, ?, ?) ON CONFLICT (user_id) DO NOTHING",
                arguments: [userId, wrapped, Date()]
            )
            return false
        case .destroyed(let position):
            let known = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM destroyed_key WHERE user_id = ?)", arguments: [userId]) ?? false
            try db.execute(sql: "DELETE FROM data_key WHERE user_id = ?", arguments: [userId])
            try db.execute(
                sql: """
                    INSERT INTO destroyed_key (user_id, destroyed_at, log_position) VALUES (?, ?, ?)
                    ON CONFLICT (user_id) DO UPDATE SET log_position = coalesce(excluded.log_position, log_position)
                    """,
                arguments: [userId, Date(), position.map(Int64.init)]
            )
            return !known
        }
    }
}

public struct SharedKeysConflict: Error, CustomStringConvertible {
    public var userId: Int64
    public var reason: String

    public var description: String { "user \(userId): \(reason); is this the log and key store the shared store was copied from?" }
}
