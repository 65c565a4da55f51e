import EventLog
import EventSourcing
import Foundation
import ReadModels

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
    case inUse(String, pid: Int32?, command: String)
    case unusable(String, String)

    public var description: String {
        switch self {
        case .belongsToAnotherProduct(let path, let marked, let expected):
            "\(path) holds \(marked) data, not \(expected)'s: give this binary its own --data-dir"
        case .alreadyServed(let path, let pid):
            "a server\(pid.map { " (pid \($0))" } ?? "") already serves \(path): stop it first, or give this one its own --data-dir"
        case .inUse(let path, let pid, let command):
            "`\(command)`\(pid.map { " (pid \($0))" } ?? "") is running over \(path), which no server may open meanwhile: start this once it has finished"
        case .unusable(let path, let reason):
            "cannot use \(path): \(reason)"
        }
    }
}
