import EventLog
import Foundation
import Logging
import PersonalData
import PostgresLog
import ReadModels

/// Moves a product's embedded log into PostgreSQL (`<product> log-copy --to postgres://…`), for a team
/// that outgrows one machine and keeps its history: the key store first (the same wrapped keys, so
/// every sealed value still opens, and every erasure), then the uploaded files (sealed, as stored:
/// every node reads them from there), then every event at its own position, with its
/// id, stream, version and time. Resumable: a second run checks that the database holds this log's
/// events so far (the last one's id at its position) and copies the rest. A copy made with no server
/// on the directory marks it as holding the shared log (`DataDirectory.sharedLogMarker`), as a node's
/// copy is: served again without the log's URL, its writes would never reach the shared log.
public enum LogCopy {
    public struct Report: Sendable {
        public var copiedEvents: Int
        public var head: UInt64
        public var keys: Int
        public var erasures: Int
        public var files: Int
        /// Whether the directory was marked as holding the shared log (no server or command held it).
        public var marked: Bool
    }

    public enum Failure: Error, CustomStringConvertible {
        case differentLog(position: UInt64)

        public var description: String {
            switch self {
            case .differentLog(let position):
                "the database holds a different log (its event at position \(position) is not this log's): copy into an empty database"
            }
        }
    }

    /// What one call to the server may take: a batch of 5,000 events (or the key store) in one
    /// transaction, not a request's append, on a server that may be busy serving too.
    static let operationTimeout = Duration.seconds(60)

    public static func run<Product: EventSourcedProduct>(
        _ product: Product.Type, from directory: DataDirectory, to url: String, masterKey: MasterKey, logger: Logger
    ) async throws -> Report {
        let log = try EventLog(configuration: .init(directory: directory.log, readOnly: true))
        defer { log.close() }
        let keys = try KeyStore(path: directory.keyStorePath, masterKey: masterKey)
        defer { try? keys.close() }
        let shared = try await SharedLogSetting.open(url, for: Product.self, named: "--to", operationTimeout: operationTimeout)
        defer { shared.log.close() }
        guard let target = shared.log as? PostgresSharedLog else { throw Failure.differentLog(position: 0) }

        let (copiedKeys, erasures) = try await keys.copy(into: shared.keys)
        let files = try await SealedFiles(root: directory.files, keys: keys, shared: SharedFiles(log: target)).shareAll()
        var head = try await target.head()
        guard head <= log.headPosition else { throw Failure.differentLog(position: head) }
        if head > 0 {
            let theirs = try await target.events(after: head - 1, limit: 1).first
            guard let theirs, theirs.id == (try log.event(at: head))?.id else { throw Failure.differentLog(position: head) }
        }
        var copied = 0
        func copyRest() async throws {
            while head < log.headPosition {
                let batch = try log.read(from: head + 1, limit: 5_000)
                try await target.importRecorded(batch)
                copied += batch.count
                head = batch.last?.position ?? head
                logger.info("copying the log", metadata: ["position": "\(head)", "of": "\(log.headPosition)"])
            }
        }
        try await copyRest()
        // Marked only while no server or offline command (an import) can append to the directory's
        // own log: under its lock, so that none starts meanwhile, once what one appended since the
        // copy began is copied too. With one running, not marked: what it appends after the copy
        // would stay in this directory alone.
        var marked = false
        var failed: (any Error)?
        do {
            try await directory.whileStopped("log-copy") {
                do {
                    try log.refreshHead()
                    try await copyRest()
                    try Data("\(target.location)\n".utf8).write(to: directory.sharedLogMarker, options: .atomic)
                    marked = true
                } catch {
                    failed = error
                }
            }
        } catch DataDirectoryError.alreadyServed, DataDirectoryError.inUse {
        } catch {
            logger.warning("copied, but the directory could not be locked to mark it: \(error)")
        }
        if let failed { throw failed }
        return Report(copiedEvents: copied, head: head, keys: copiedKeys, erasures: erasures, files: files, marked: marked)
    }
}
