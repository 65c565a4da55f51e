import Crypto
import EventLog
import EventSourcing
import Foundation

/// Files users uploaded, content-addressed per owner and sealed under the owner's data key:
/// `<root>/<owner>/<SHA-256 of the contents, hex>`, AES-GCM with the hash authenticated, so a file
/// cannot be moved to another name or owner. Once its owner is erased (their key destroyed) a file
/// never opens again, here or in any backup; `removeAll(of:)` then frees the space.
///
/// A file is durable (synced, linked into place, its directory synced) before `store` returns, so an
/// event naming it is appended only after the file can be read back. On a shared log, `share` then
/// stores the sealed file in it too, and a node that lacks a file fetches it from there (and keeps a
/// copy): an upload through one node is read through every other.
public struct SealedFiles: Sendable {
    public struct Stored: Sendable, Equatable {
        /// Lowercase hex SHA-256 of the contents: the file's name.
        public var sha256: String
        public var size: Int
    }

    public let root: URL
    private let keys: KeyStore
    private let shared: SharedFiles?
    /// Beside a log that shows a past state: nothing is stored, as nothing is recorded.
    private let readOnly: Bool
    private let storageFull = StorageFullLatch()

    public init(root: URL, keys: KeyStore, shared: SharedFiles?, readOnly: Bool = false) {
        self.root = root
        self.keys = keys
        self.shared = shared
        self.readOnly = readOnly
    }

    /// The standing failure to store a file for want of space, for `/health`.
    public var storageFailure: (error: StorageFullError, since: Date)? { storageFull.current }

    /// Stores `contents` for `owner` (once: the same contents again is the same file). A full disk
    /// throws `StorageFullError`, leaving nothing behind; a read-only store, `EventLogError.readOnly`.
    public func store(_ contents: Data, owner: Int64) throws -> Stored {
        guard !readOnly else { throw EventLogError.readOnly }
        do {
            let stored = try storeUnmapped(contents, owner: owner)
            storageFull.recordSuccess()
            return stored
        } catch let failure as PrivateFile.Failure where StorageFullError.isNoSpace(errno: failure.code) {
            throw recordedFull(cause: failure.description)
        } catch let error as CocoaError where error.code == .fileWriteOutOfSpace {
            throw recordedFull(cause: "\(error)")
        }
    }

    /// Makes a stored file readable through every node of a shared log, durably (nothing to do on an
    /// embedded one): before the event naming it is recorded, as `store` is.
    public func share(_ sha256: String, owner: Int64) async throws {
        guard let shared else { return }
        let path = path(sha256, owner: owner).path
        guard let sealed = FileManager.default.contents(atPath: path) else { throw PrivateFile.Failure(operation: "read", path: path, code: ENOENT) }
        try await shared.store(Self.sharedName(sha256, owner: owner), sealed)
    }

    private func recordedFull(cause: String) -> StorageFullError {
        let full = StorageFullError(store: .uploadedFiles, path: root.path, cause: cause)
        storageFull.record(full)
        return full
    }

    /// What `store` answers for `contents`, storing nothing.
    public static func address(of contents: Data) -> Stored {
        Stored(sha256: SHA256.hash(data: contents).lowercaseHex, size: contents.count)
    }

    private func storeUnmapped(_ contents: Data, owner: Int64) throws -> Stored {
        let sha256 = Self.address(of: contents).sha256
        guard let key = try keys.key(for: owner, creating: true) else { throw KeyStore.Failure.keyDestroyed(userId: owner) }
        let directory = root.appendingPathComponent("\(owner)")
        let path = path(sha256, owner: owner).path
        if !FileManager.default.fileExists(atPath: path) {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let sealed = try SealedBytes.seal(contents, with: key, authenticating: Self.context(sha256, owner: owner))
            if try PrivateFile.publish(sealed, at: path) { try PrivateFile.syncDirectory(directory.path) }
        }
        return Stored(sha256: sha256, size: contents.count)
    }

    /// The contents of `owner`'s file `sha256`; nil when there is none or its owner was erased.
    public func contents(_ sha256: String, owner: Int64) async throws -> Data? {
        guard Self.isAddress(sha256),
              let key = try keys.key(for: owner, creating: false),
              let sealed = try await sealedContents(sha256, owner: owner)
        else { return nil }
        return try SealedBytes.open(sealed, with: key, authenticating: Self.context(sha256, owner: owner))
    }

    /// This node's copy, else the shared log's, copied here for the next read (a copy that cannot be
    /// written, on a full disk say, is not kept; the read still answers).
    private func sealedContents(_ sha256: String, owner: Int64) async throws -> Data? {
        let path = path(sha256, owner: owner)
        if let local = FileManager.default.contents(atPath: path.path) { return local }
        guard let shared, let sealed = try await shared.contents(Self.sharedName(sha256, owner: owner)) else { return nil }
        let directory = path.deletingLastPathComponent()
        if (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])) != nil,
           (try? PrivateFile.publish(sealed, at: path.path)) == true {
            try? PrivateFile.syncDirectory(directory.path)
        }
        return sealed
    }

    /// Deletes every file of `owner`'s (after their erasure: nothing could open them any more), here
    /// and in the shared log; other nodes remove their copies when their key stores copy the erasure
    /// (`removeCopies`), or at their next start (`removeErasedOwners`).
    public func removeAll(of owner: Int64) async throws {
        try removeCopies(of: [owner])
        try await shared?.removeAll(prefixed: "files/\(owner)/")
    }

    /// Shares (`share`) every file stored here whose owner is not erased, once more if it already is:
    /// what `log-copy` moves into a shared log beside the events naming them. Returns how many.
    public func shareAll() async throws -> Int {
        guard let owners = try? FileManager.default.contentsOfDirectory(atPath: root.path) else { return 0 }
        let erased = Set(try keys.erasures().map(\.userId))
        var count = 0
        for owner in owners.compactMap(Int64.init) where !erased.contains(owner) {
            for name in try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("\(owner)").path) where Self.isAddress(name) {
                try await share(name, owner: owner)
                count += 1
            }
        }
        return count
    }

    /// Lowercase hex SHA-256: a stored file's name.
    private static func isAddress(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Deletes this node's copies of these owners' files.
    public func removeCopies(of owners: [Int64]) throws {
        try Self.removeCopies(of: owners, under: root)
    }

    /// `removeCopies(of:)` for a caller that must not hold the files' key store (one of its own
    /// observers).
    public static func removeCopies(of owners: [Int64], under root: URL) throws {
        for owner in owners {
            let directory = root.appendingPathComponent("\(owner)")
            if FileManager.default.fileExists(atPath: directory.path) { try FileManager.default.removeItem(at: directory) }
        }
    }

    /// Deletes the files here of every owner erased: a node's copies of files that an erasure
    /// through another node made unreadable while this node was down.
    public func removeErasedOwners() throws {
        guard let owners = try? FileManager.default.contentsOfDirectory(atPath: root.path), !owners.isEmpty else { return }
        let erased = Set(try keys.erasures().map(\.userId))
        try removeCopies(of: owners.compactMap(Int64.init).filter(erased.contains))
    }

    private func path(_ sha256: String, owner: Int64) -> URL { root.appendingPathComponent("\(owner)/\(sha256)") }

    private static func sharedName(_ sha256: String, owner: Int64) -> String { "files/\(owner)/\(sha256)" }

    private static func context(_ sha256: String, owner: Int64) -> String { "file1:\(owner):\(sha256)" }
}

extension StorageFullError.Store {
    public static let uploadedFiles = StorageFullError.Store(rawValue: "uploaded_files", title: "the uploaded files")
}
