import EventLog
import Foundation
import Logging
import Projections
import ServiceLifecycle

/// The log and the read database, opened together and closed after everything that uses them.
struct Storage: Service {
    let log: EventLog
    let readDatabase: ReadDatabase

    init(configuration: AppConfiguration) throws {
        log = try EventLog(configuration: .init(directory: configuration.logDirectory, initialMapSize: configuration.initialLogMapSize))
        do {
            readDatabase = try ReadDatabase(directory: configuration.readDirectory)
        } catch {
            log.close()
            throw error
        }
    }

    /// Waits for shutdown; services stop in reverse order, so this runs after the server and runner.
    func run() async throws {
        try? await gracefulShutdown()
        close()
    }

    func close() {
        log.close()
        try? readDatabase.close()
    }
}
