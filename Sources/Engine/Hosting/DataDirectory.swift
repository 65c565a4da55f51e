import EventLog
import EventSourcing
import Foundation
import ReadModels
#if canImport(Glibc)
import Glibc
#endif

/// Where things live in a product's data directory: the LMDB log, the read-model SQLite files, the
/// marker naming the product the directory belongs to, the demo marker, the running server's pid.
public struct DataDirectory: Sendable {
    public let root: URL

    public init(_ root: URL) {
        self.root = root
    }

    public var log: URL { root.appendingPathComponent("log") }
    public var read: URL { root.appendingPathComponent("read") }
    /// The read-model generation in force (see `ReadModelFiles`).
    public var readDatabasePath: String { ReadModelFiles(directory: read).currentPath }
    /// The key store: every user's data key, wrapped (`KeyStore`).
    public var keys: URL { root.appendingPathComponent("keys") }
    public var keyStorePath: String { keys.appendingPathComponent("keys.sqlite").path }
    /// Files users uploaded, sealed under their data keys (`SealedFiles`); products without uploads
    /// have none.
    public var files: URL { root.appendingPathComponent("files") }
    /// What a product keeps only to answer faster (Nuvie's recommendation lists): anything in it may
    /// be deleted while no server runs, and an offline erasure deletes all of it.
    public var cache: URL { root.appendingPathComponent("cache") }
    /// The console's backups (`backups/<time>`).
    public var backups: URL { root.appendingPathComponent("backups") }
    /// In demo mode only, the master key, generated on first start (ops/privacy.md).
    public var demoMasterKey: URL { root.appendingPathComponent("demo-master-key") }
    /// Names the product whose log this is, so another product's binary refuses it.
    public var productMarker: URL { root.appendingPathComponent("product") }
    /// Present when the directory's log is a node's copy of a shared log (it names where, without a
    /// password): nothing may be appended to it except through that log.
    public var sharedLogMarker: URL { root.appendingPathComponent("shared-log") }
    /// Present when the directory was created in demo mode, so it stays a demo on restart.
    public var demoMarker: URL { root.appendingPathComponent("demo-mode") }
    public var isDemo: Bool { FileManager.default.fileExists(atPath: demoMarker.path) }

    /// Holds the pid of the server serving this directory while it runs, which holds a lock on it.
    public var serverPidFile: URL { root.appendingPathComponent("server.pid") }

    /// The pid of a live server over this directory, if one is running: one holds the file's lock
    /// (`whileServing`). A pid alone could name a process that serves another directory (a copy of
    /// this one) or none (a server killed, its pid reused); the lock goes with the process.
    public var runningServer: Int32? {
        let file = open(serverPidFile.path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        guard flock(file, LOCK_SH | LOCK_NB) != 0 else { return nil }
        return Self.pid(in: file) ?? 0
    }

    private static func unusable(_ file: URL, errno code: Int32) -> any Error {
        let cause = String(cString: strerror(code))
        guard StorageFullError.isNoSpace(errno: code) else { return DataDirectoryError.unusable(file.path, cause) }
        return StorageFullError(store: .init(rawValue: "data_directory", title: "the data directory"), path: file.deletingLastPathComponent().path, cause: cause)
    }

    private static func pid(in file: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = pread(file, &bytes, bytes.count, 0)
        guard count > 0 else { return nil }
        return Int32(String(decoding: bytes[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Explicit flag, then the environment, then: on for a new or empty directory, off otherwise. A
    /// new directory of a node joining a shared log is not a demo: it is a new node of a cluster, and
    /// is given its secrets. Nor is one started with a master key configured (`givenMasterKey`): a
    /// deployment's, whose new directory (systemd's `StateDirectory`) must not open demo sign-ins and
    /// published passwords because `_DEMO=false` was left out. A demo directory is marked so, so that
    /// it stays a demo on restart.
    public func resolveDemoMode(flag: Bool?, environment: Bool?, joiningSharedLog: Bool = false, givenMasterKey: Bool = false) throws -> Bool {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        let demo = flag ?? environment ?? ((files.isEmpty && !joiningSharedLog && !givenMasterKey) || files.contains(demoMarker.lastPathComponent))
        if demo {
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            try Data().write(to: demoMarker)
        }
        return demo
    }

    /// Runs `serve` holding the lock on `serverPidFile`, which holds this process's pid, so that
    /// operator commands that must not run beside a server can tell, and a second server is refused
    /// before it opens anything (it had taken the file over, and removed it when it stopped).
    public func whileServing(_ serve: () async throws -> Void) async throws {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let file = open(serverPidFile.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard file >= 0 else { throw Self.unusable(serverPidFile, errno: errno) }
        defer { close(file) }
        guard flock(file, LOCK_EX | LOCK_NB) == 0 else { throw DataDirectoryError.alreadyServed(root.path, pid: Self.pid(in: file)) }
        let pid = Array("\(getpid())\n".utf8)
        guard ftruncate(file, 0) == 0, pwrite(file, pid, pid.count, 0) == pid.count else { throw Self.unusable(serverPidFile, errno: errno) }
        defer { unlink(serverPidFile.path) }
        removeAbandonedScratch()
        try await serve()
    }

    /// The product named by the marker, if there is one.
    public var markedProduct: String? {
        (try? String(contentsOf: productMarker, encoding: .utf8)).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// Makes sure this directory is `Product`'s, marking it so when it is new. A directory from
    /// before markers existed is adopted only if its first event is one of `Product`'s.
    public func claim<Product: EventSourcedProduct>(for product: Product.Type) throws {
        if let marked = markedProduct {
            guard marked == Product.name else { throw DataDirectoryError.belongsToAnotherProduct(root.path, marked: marked, expected: Product.name) }
            return
        }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        if FileManager.default.fileExists(atPath: log.appendingPathComponent("data.mdb").path) {
            let existing = try EventLog(configuration: .init(directory: log, readOnly: true))
            defer { existing.close() }
            if let first = try existing.event(at: 1), (try? Product.Catalog.decode(first, personalData: WithheldPersonalData())) == nil {
                throw DataDirectoryError.belongsToAnotherProduct(root.path, marked: "an unmarked log whose events are not \(Product.name)'s", expected: Product.name)
            }
        }
        try Data("\(Product.name)\n".utf8).write(to: productMarker, options: .atomic)
    }
}

public enum DataDirectoryError: Error, CustomStringConvertible, Equatable {
    case belongsToAnotherProduct(String, marked: String, expected: String)
    case alreadyServed(String, pid: Int32?)
    case unusable(String, String)

    public var description: String {
        switch self {
        case .belongsToAnotherProduct(let path, let marked, let expected):
            "\(path) holds \(marked) data, not \(expected)'s: give this binary its own --data-dir"
        case .alreadyServed(let path, let pid):
            "a server\(pid.map { " (pid \($0))" } ?? "") already serves \(path): stop it first, or give this one its own --data-dir"
        case .unusable(let path, let reason):
            "cannot use \(path): \(reason)"
        }
    }
}
