import ReadModels
import EventLog
import Foundation
import Logging
import NuvieProjections
import NuvieRecommendations
import ServiceLifecycle

/// The log and the read database, opened together and closed after everything that uses them
/// (`StoresAndTheirWorkers`).
struct Storage: Sendable {
    let log: EventLog
    let readDatabase: ReadDatabase
    let recommendationCache: RecommendationFeedCache

    init(configuration: AppConfiguration) throws {
        log = try EventLog(configuration: .init(
            directory: configuration.logDirectory, initialMapSize: configuration.initialLogMapSize, readOnly: configuration.readOnly
        ))
        do {
            readDatabase = try ReadDatabase(directory: configuration.readDirectory)
        } catch {
            log.close()
            throw error
        }
        do {
            recommendationCache = try RecommendationFeedCache(path: configuration.recommendationCachePath)
        } catch {
            Self.close(log: log, readDatabase: readDatabase)
            throw error
        }
    }

    /// Refuses to start when the filesystem under any store is full, naming it, instead of failing
    /// later on whichever file happens to need a page first.
    static func checkRoom(_ configuration: AppConfiguration) throws {
        try StorageFullError.checkRoom(for: .eventLog, at: configuration.logDirectory.path)
        try StorageFullError.checkRoom(for: .readModels, at: configuration.readDirectory.path)
        try StorageFullError.checkRoom(for: .recommendationCache, at: configuration.recommendationCachePath)
    }

    func close() {
        Self.close(log: log, readDatabase: readDatabase)
        try? recommendationCache.close()
    }

    private static func close(log: EventLog, readDatabase: ReadDatabase) {
        log.close()
        try? readDatabase.close()
    }
}
