import NuvieAPI
import EventLog
import Hummingbird
import Prometheus
import NuvieProjections
import NuvieRecommendations

/// `GET /health`: the log head and each projection's position, lag and failure, and each store whose
/// disk is full; 503 when a projection has stopped on an event (`failing`) or a store refuses writes
/// for want of space (`degraded`). `GET /metrics`: Prometheus text.
struct HealthController: Sendable {
    let log: EventLog
    let runner: NuvieRunner
    let recommendationCache: RecommendationFeedCache
    let registry: PrometheusCollectorRegistry?
    let recommender: Recommender

    struct Health: ResponseEncodable {
        struct Projection: Encodable {
            var name: String
            var version: Int
            var position: UInt64
            var lag: UInt64
            @Nullable var failedPosition: UInt64?
            @Nullable var failure: String?
        }
        struct Model: Encodable {
            var name: String
            var version: String
            var trainedAt: String
            /// The log position of the latest rating it was trained on.
            var position: UInt64
            var films: Int
        }
        /// A store whose last write failed for want of space (reads still work).
        struct FullStore: Encodable {
            var store: String
            var since: String
            var error: String
        }
        var status: String
        var logHeadPosition: UInt64
        var projections: [Projection]
        @Nullable var recommendationModel: Model?
        var storageFull: [FullStore]
    }

    func register(on router: Router<AppRequestContext>) {
        router.get("health", use: health)
        router.get("metrics", use: metrics)
    }

    func health(_ request: Request, context: AppRequestContext) async throws -> EditedResponse<Health> {
        let head = log.headPosition
        let projections = try runner.status().map {
            Health.Projection(
                name: $0.name, version: $0.version, position: $0.position, lag: head > $0.position ? head - $0.position : 0,
                failedPosition: $0.failedPosition, failure: $0.failure
            )
        }
        let failed = projections.contains { $0.failedPosition != nil }
        let caughtUp = projections.allSatisfy { $0.lag == 0 }
        let model = recommender.trained.map {
            Health.Model(
                name: $0.info.name, version: $0.info.version, trainedAt: ContractJSON.timestamp($0.info.trainedAt),
                position: $0.position, films: $0.model.count
            )
        }
        let full = [log.storageFailure, runner.storageFailure, recommendationCache.storageFailure].compactMap { $0 }.map {
            Health.FullStore(store: $0.error.store.rawValue, since: ContractJSON.timestamp($0.since), error: $0.error.description)
        }
        let health = Health(
            status: failed ? "failing" : !full.isEmpty ? "degraded" : caughtUp ? "ok" : "catching_up", logHeadPosition: head,
            projections: projections, recommendationModel: model, storageFull: full
        )
        return EditedResponse(status: failed || !full.isEmpty ? .serviceUnavailable : .ok, response: health)
    }

    func metrics(_ request: Request, context: AppRequestContext) async throws -> Response {
        let text = registry?.emitToString() ?? ""
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text))
        )
    }
}
