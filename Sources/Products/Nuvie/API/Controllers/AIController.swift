import Foundation
import Hummingbird
import NuvieRecommendations

/// The internal AI contract, served from the model in this process: `POST /ai/recommend` and
/// `POST /ai/explain`, behind `X-Internal-Token`. Errors use the contract's AI codes
/// (`INVALID_REQUEST`, `USER_NOT_FOUND`, `MODEL_NOT_READY`, `TIMEOUT`, `INTERNAL_ERROR`).
struct AIController: Sendable {
    let engine: any RecommendationEngine

    var endpoints: RouteCollection<NuvieRequestContext> {
        RouteCollection(context: NuvieRequestContext.self)
            .post("recommend", use: recommend)
            .post("explain", use: explain)
    }

    func recommend(_ request: Request, context: NuvieRequestContext) async throws -> AIRecommendResponseDTO {
        let body = try await invalidRequestOnBadInput {
            try await JSONBody.decode(request, context: context, fields: ["request_id", "user_id", "limit", "offset", "exclude_movie_ids", "context"])
        }
        let query = try await invalidRequestOnBadInput {
            let limit = try body.integer("limit", orThrow: NuvieAPIError.validation("limit must be an integer from 1 to \(RecommendQuery.maximumLimit)", field: "limit")) ?? 20
            guard (1...RecommendQuery.maximumLimit).contains(limit) else {
                throw NuvieAPIError.validation("limit must be an integer from 1 to \(RecommendQuery.maximumLimit)", field: "limit")
            }
            let offset = try body.integer("offset", orThrow: NuvieAPIError.validation("offset must be a non-negative integer", field: "offset")) ?? 0
            guard offset >= 0 else { throw NuvieAPIError.validation("offset must be a non-negative integer", field: "offset") }
            let context = try body.object("context")
            let seeds = try context?.idList("seed_movie_ids", maxCount: 1000)
            _ = try context?.string("locale", maxLength: 35)
            if let time = try context?.string("time", maxLength: 40), NuvieJSON.date(time) == nil {
                throw NuvieAPIError.validation("context.time must be a time like 2024-01-15T10:30:00Z", field: "context.time")
            }
            return RecommendQuery(
                requestId: try requestId(body), userId: try userId(body), limit: limit, offset: offset,
                excludeMovieIds: Set(try body.idList("exclude_movie_ids", maxCount: 10_000) ?? []),
                useSocial: try context?.bool("use_social") ?? true, seedMovieIds: seeds.map(Set.init)
            )
        }
        return AIRecommendResponseDTO(try await engine.recommend(query))
    }

    func explain(_ request: Request, context: NuvieRequestContext) async throws -> AIExplainResponseDTO {
        let body = try await invalidRequestOnBadInput {
            try await JSONBody.decode(request, context: context, fields: ["request_id", "user_id", "movie_id", "context"])
        }
        let query = try await invalidRequestOnBadInput {
            guard let movieId = try body.integer("movie_id", orThrow: NuvieAPIError.validation("movie_id must be an integer", field: "movie_id")) else {
                throw NuvieAPIError.validation("movie_id is required", field: "movie_id")
            }
            return ExplainQuery(
                requestId: try requestId(body), userId: try userId(body), movieId: Int64(movieId),
                useSocial: try body.object("context")?.bool("use_social") ?? true
            )
        }
        return AIExplainResponseDTO(try await engine.explain(query))
    }

    private func requestId(_ body: JSONBody) throws -> String {
        let id = try body.requiredString("request_id", maxLength: 128)
        guard !id.isEmpty else { throw NuvieAPIError.validation("request_id must not be empty", field: "request_id") }
        return id
    }

    private func userId(_ body: JSONBody) throws -> Int64 {
        guard let id = try body.integer("user_id", orThrow: NuvieAPIError.validation("user_id must be an integer", field: "user_id")) else {
            throw NuvieAPIError.validation("user_id is required", field: "user_id")
        }
        return Int64(id)
    }

    /// The AI contract calls a bad request `INVALID_REQUEST`.
    private func invalidRequestOnBadInput<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as NuvieAPIError where error.status == .badRequest {
            throw NuvieAPIError(.badRequest, code: "INVALID_REQUEST", message: error.message, details: error.details)
        }
    }
}
