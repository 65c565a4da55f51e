import NuvieCommands
import NuvieProjections
import EventLog
import Foundation
import ProductHosting
import ReadModels
import Logging

/// The demo import's progress in a data directory, kept in `<data-dir>/demo-import`: `started` is
/// written (and synced) before the first event is appended, `finished` once the read models hold the
/// whole demo. A server killed or failed in between finds `started` on its next start and resumes:
/// the importer derives every event id from the data and appends in whole batches, so what was
/// recorded is skipped and the rest appended.
struct DemoImport {
    enum State: String { case started, finished }

    let directory: DataDirectory
    var file: URL { directory.root.appendingPathComponent("demo-import") }

    var state: State? {
        (try? String(contentsOf: file, encoding: .utf8)).flatMap { State(rawValue: $0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Due on an empty log, and after an import that stopped part-way. A directory from before this
    /// file existed has none: its demo is taken as complete, as it was then.
    func isDue(logHead: UInt64) -> Bool {
        logHead == 0 || state == .started
    }

    /// The runner over the read models, after the demo's import in demo mode: a fresh demo answers its
    /// first requests from complete read models; a production server with a backlog serves at once and
    /// reports `catching_up` in /health instead.
    static func runner(configuration: NuvieConfiguration, stores: ProductStores<NuvieProduct>, logger: Logger) async throws -> NuvieRunner {
        let demo = DemoImport(directory: DataDirectory(configuration.dataDirectory))
        let importing = configuration.seedsDemo && demo.isDue(logHead: stores.log.headPosition)
        if importing, let dataset = configuration.demoDataset {
            try await demo.run(dataset, into: stores.store, logger: logger)
        }
        let runner = try stores.runner(logger: logger)
        if importing {
            logger.info("folding the demo into the read models before serving")
            try runner.catchUp()
            if configuration.demoDataset != nil { try demo.record(.finished) }
        }
        return runner
    }

    /// Imports `dataset`, or the rest of it after an interrupted import.
    func run(_ dataset: URL, into store: NuvieStore, logger: Logger) async throws {
        let resuming = store.log.headPosition > 0
        if resuming {
            logger.warning("the demo import stopped part-way last time; resuming it before serving", metadata: [
                "log.head": "\(store.log.headPosition)", "dataset": "\(dataset.path)",
            ])
        } else {
            logger.info("empty log in demo mode: importing the demo dataset", metadata: ["dataset": "\(dataset.path)"])
        }
        try record(.started)
        let summary: MovieLensImporter.Summary
        do {
            summary = try await MovieLensImporter(store: store).importDirectory(dataset) { progress in
                logger.info("importing", metadata: ["events": "\(progress.appended)/\(progress.total)"])
            }
        } catch let error where resuming && !(error is StorageFullError) {
            throw DemoImportError.cannotResume(dataDirectory: directory.root.path, reason: "\(error)")
        }
        logger.info(resuming ? "demo import resumed and complete" : "demo imported", metadata: [
            "movies": "\(summary.movies)", "users": "\(summary.users)", "ratings": "\(summary.ratings)", "events": "\(summary.newEvents)",
        ])
    }

    /// Written, and synced with its directory, before the caller goes on.
    func record(_ state: State) throws {
        try DurableFile.replace(file, with: Data((state.rawValue + "\n").utf8))
    }
}

enum DemoImportError: Error, CustomStringConvertible {
    case cannotResume(dataDirectory: String, reason: String)

    var description: String {
        switch self {
        case let .cannotResume(directory, reason):
            "the demo import into \(directory) stopped part-way and cannot be resumed (\(reason)); "
                + "move that data directory aside and start again for a fresh demo"
        }
    }
}
