import EventLog
import Foundation
import Logging
import ReadModels

/// A product's log and read database, opened together over its own data directory (claimed for the
/// product first) and closed together after everything that uses them (`StoresAndTheirWorkers`).
public struct ProductStores<Product: EventSourcedProduct>: Sendable {
    public let directory: DataDirectory
    public let log: EventLog
    public let readDatabase: ReadDatabase

    public init(directory: DataDirectory, initialLogMapSize: Int = 64 << 20, readOnly: Bool = false) throws {
        if !readOnly {
            try StorageFullError.checkRoom(for: .eventLog, at: directory.log.path)
            try StorageFullError.checkRoom(for: .readModels, at: directory.read.path)
        }
        try directory.claim(for: Product.self)
        self.directory = directory
        log = try EventLog(configuration: .init(directory: directory.log, initialMapSize: initialLogMapSize, readOnly: readOnly))
        do {
            readDatabase = try ReadDatabase(directory: directory.read, projections: Product.projections)
        } catch {
            log.close()
            throw error
        }
    }

    public func runner(batchSize: Int = 2000, logger: Logger) throws -> ProjectionRunner<Product.Catalog> {
        try ProjectionRunner(log: log, database: readDatabase, projections: Product.projections, batchSize: batchSize, logger: logger)
    }

    public func close() {
        log.close()
        try? readDatabase.close()
    }
}
