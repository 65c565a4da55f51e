import NuvieDomain
import EventLog
import EventSourcing
import Foundation
import Logging
import ReadModels

/// Nuvie's read database and runner: the engine's, over Nuvie's projections and events.
public typealias NuvieRunner = ProjectionRunner<NuvieCatalog>

extension ReadDatabase {
    /// The current generation in `directory`, with Nuvie's read models.
    public convenience init(directory: URL) throws {
        try self.init(directory: directory, projections: NuvieReadModels.all)
    }

    public convenience init(path: String) throws {
        try self.init(path: path, projections: NuvieReadModels.all)
    }
}

extension ProjectionRunner where Catalog == NuvieCatalog {
    /// Folds Nuvie's events into Nuvie's read models.
    public convenience init(log: EventLog, personalData: any PersonalDataCipher, database: ReadDatabase, batchSize: Int = 2000, logger: Logger) throws {
        try self.init(log: log, personalData: personalData, database: database, projections: NuvieReadModels.all, batchSize: batchSize, logger: logger)
    }
}

/// Nuvie as the engine hosts it: its events and its projections.
public enum NuvieProduct: EventSourcedProduct {
    public typealias Catalog = NuvieCatalog
    public static let name = "nuvie"
    public static var projections: [any Projection<NuvieEvent>] { NuvieReadModels.all }
    public static func userStream(_ userId: Int64) -> String { NuvieStreams.user(userId) }
    /// A blocked user's export does not say who blocked them, as `GET /users/{id}` does not.
    public static var concealedFromSubjects: Set<String> { [UserBlocked.typeName, UserUnblocked.typeName] }
    public static let metricHelp = [
        "nuvie_ai_fallbacks_total": "Calls to the external AI service answered by the backend's own model instead, by call.",
        "nuvie_recommendation_training_seconds": "Time each training of the recommendation model took.",
        "nuvie_recommendation_model_position": "The log position the serving recommendation model was trained up to.",
        "nuvie_recommendation_model_films": "Films the serving recommendation model scores.",
        "nuvie_recommendation_model_bytes": "Bytes of the serving recommendation model's weights.",
    ]
}
