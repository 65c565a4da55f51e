import HTTPServing
import NuvieAPI
import NuvieRecommendations

/// `/health`'s `recommendation_model`: the model serving now, or null before the first training.
struct ModelHealth: Encodable, Sendable {
    struct Model: Encodable, Sendable {
        var name: String
        var version: String
        var trainedAt: String
        /// The log position of the latest rating or finished film it was trained on.
        var position: UInt64
        var films: Int
    }

    @Nullable var model: Model?

    init(_ trained: Recommender.Trained?) {
        model = trained.map {
            Model(name: $0.info.name, version: $0.info.version, trainedAt: NuvieJSON.timestamp($0.info.trainedAt), position: $0.position, films: $0.model.count)
        }
    }

    func encode(to encoder: any Encoder) throws {
        try _model.encode(to: encoder)
    }
}
