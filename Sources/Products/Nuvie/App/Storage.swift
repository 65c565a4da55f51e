import EventLog
import Foundation
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

    init(configuration: AppConfiguration) throws {
        if !configuration.readOnly {
            try StorageFullError.checkRoom(for: .recommendationCache, at: configuration.recommendationCachePath)
        }
        stores = try ProductStores(
            directory: DataDirectory(configuration.dataDirectory), initialLogMapSize: configuration.initialLogMapSize,
            readOnly: configuration.readOnly
        )
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
