import EventLog
import Foundation
import Logging
import NuvieCommands
import NuvieProjections
import NuvieRecommendations
import ProductHosting
import ReadModels

/// Nuvie's stores: the engine's log and read database over its data directory, and the
/// recommendation cache beside them; opened together, closed after everything that uses them
/// (`StoresAndTheirWorkers`).
struct Storage: Sendable {
    let stores: ProductStores<NuvieProduct>
    let recommendationCache: RecommendationFeedCache

    var log: EventLog { stores.log }
    var readDatabase: ReadDatabase { stores.readDatabase }

    var store: DomainLog { stores.store }

    init(configuration: NuvieConfiguration, logger: Logger) async throws {
        if !configuration.readOnly {
            try StorageFullError.checkRoom(for: .recommendationCache, at: configuration.recommendationCachePath)
        }
        stores = try await ProductStores.open(for: configuration, logger: logger)
        do {
            recommendationCache = try RecommendationFeedCache(path: configuration.recommendationCachePath)
        } catch {
            stores.close()
            throw error
        }
    }

    func close() {
        stores.close()
        try? recommendationCache.close()
    }
}
