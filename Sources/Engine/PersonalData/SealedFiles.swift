import Crypto
import EventLog
import Foundation

/// Files users uploaded, content-addressed per owner and sealed under the owner's data key:
/// `<root>/<owner>/<SHA-256 of the contents, hex>`, AES-GCM with the hash authenticated, so a file
/// cannot be moved to another name or owner. Once its owner is erased (their key destroyed) a file
/// never opens again, here or in any backup; `removeAll(of:)` then frees the space.
///
/// A file is durable (synced, linked into place, its directory synced) before `store` returns, so an
/// event naming it is appended only after the file can be read back.
public struct SealedFiles: Sendable {
    public struct Stored: Sendable, Equatable {
        /// Lowercase hex SHA-256 of the contents: the file's name.
        public var sha256: String
        public var size: Int
    }

    public let root: URL
    private let keys: KeyStore
    private let storageFull = StorageFullLatch()

    public init(root: URL, keys: KeyStore) {
        self.root = root
        self.keys = keys
    }

    /// The standing failure to store a file for want of space, for `/health`.
    public var storageFailure: (error: StorageFullError, since: Date)? { storageFull.current }

    /// Stores `contents` for `owner` (once: the same contents again is the same file). A full disk
    /// throws `StorageFullError`, leaving nothing behind.
    public func store(_ contents: Data, owner: Int64) throws -> Stored {
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

    private func recordedFull(cause: String) -> StorageFullError {
        let full = StorageFullError(store: .uploadedFiles, path: root.path, cause: cause)
        storageFull.record(full)
        return full
    }

    private func storeUnmapped(_ contents: Data, owner: Int64) throws -> Stored {
        let sha256 = SHA256.hash(data: contents).map { String(format: "%02x", $0) }.joined()
        guard let key = try keys.key(for: owner, creating: true) else { throw KeyStore.Failure.keyDestroyed(userId: owner) }
        let directory = root.appendingPathComponent("\(owner)")
        let path = directory.appendingPathComponent(sha256).path
        if !FileManager.default.fileExists(atPath: path) {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let sealed = try SealedBytes.seal(contents, with: key, authenticating: Self.context(sha256, owner: owner))
            if try PrivateFile.publish(sealed, at: path) { try PrivateFile.syncDirectory(directory.path) }
        }
        return Stored(sha256: sha256, size: contents.count)
    }

    /// The contents of `owner`'s file `sha256`; nil when there is none or its owner was erased.
    public func contents(_ sha256: String, owner: Int64) throws -> Data? {
        guard sha256.utf8.count == 64, sha256.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
              let key = try keys.key(for: owner, creating: false),
              let sealed = FileManager.default.contents(atPath: root.appendingPathComponent("\(owner)/\(sha256)").path)
        else { return nil }
        return try SealedBytes.open(sealed, with: key, authenticating: Self.context(sha256, owner: owner))
    }

    /// Deletes every file of `owner`'s (after their erasure: nothing could open them any more).
    public func removeAll(of owner: Int64) throws {
        let directory = root.appendingPathComponent("\(owner)")
        if FileManager.default.fileExists(atPath: directory.path) { try FileManager.default.removeItem(at: directory) }
    }

    private static func context(_ sha256: String, owner: Int64) -> String { "file1:\(owner):\(sha256)" }
}

extension StorageFullError.Store {
    public static let uploadedFiles = StorageFullError.Store(rawValue: "uploaded_files", title: "the uploaded files")
}
