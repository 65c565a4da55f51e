import ReadModels
import EventSourcing
import NuvieCommands
import NuvieDomain
import Foundation
import Hummingbird
import ProductHosting
import NuvieProjections
import NuvieRecommendations

/// `GET /movies/{movie_id}`, `POST /movies/{movie_id}/rate`, `GET /movies/{movie_id}/reviews`.
struct MoviesController: Sendable {
    let commands: NuvieCommandService
    let movies: MovieQueries
    /// Each viewer's last read of each film, while the read models hold still.
    let films: RememberedReads<FilmView, MovieDetail>
    let reviews: ReviewQueries
    let readYourWrites: ReadYourWrites
    let discovery: DiscoveryController
    let recommendations: RecommendationDependencies

    var endpoints: RouteCollection<NuvieSignedInContext> {
        discovery.register(on: RouteCollection(context: NuvieSignedInContext.self))
            .get(":movie_id", use: show)
            .post(":movie_id/rate", use: rate)
            .get(":movie_id/reviews", use: listReviews)
            .post(":movie_id/watchlist", use: changeWatchlist)
            .post(":movie_id/watch", use: watch)
            .post(":movie_id/recommend", use: recommend)
            .get(":movie_id/explanation", use: explanation)
    }

    func show(_ request: Request, context: NuvieSignedInContext) async throws -> MovieDTO {
        let viewer = context.userId
        let movieId = try context.parameters.id("movie_id")
        guard let movie = try films.value(FilmView(viewer: viewer, movieId: movieId), scope: .film(movieId), read: { try movies.movie(id: movieId, viewer: viewer) })
        else { throw NuvieAPIError.movieNotFound(movieId) }
        return await withScores(MovieDTO(movie), viewer: viewer)
    }

    struct FilmView: Hashable {
        var viewer: Int64
        var movieId: Int64
    }

    /// `GET /movies/{movie_id}/explanation`: the "why this movie?" card.
    func explanation(_ request: Request, context: NuvieSignedInContext) async throws -> MovieExplanationDTO {
        let viewer = context.userId
        let movieId = try context.parameters.id("movie_id")
        // Our catalog decides what exists, whichever engine explains it.
        guard try recommendations.inputs.movieExists(movieId) else { throw NuvieAPIError.movieNotFound(movieId) }
        let explained = try await recommendations.engine.explain(ExplainQuery(requestId: UUID().uuidString, userId: viewer, movieId: movieId))
        return MovieExplanationDTO(explained.scored, signals: try recommendations.inputs.socialSignals(userId: viewer, movieId: movieId))
    }

    func rate(_ request: Request, context: NuvieSignedInContext) async throws -> RateResponse {
        let userId = context.userId
        let movieId = try context.parameters.id("movie_id")
        let body = try await JSONBody.decode(request, context: context, fields: ["rating", "comment", "is_review"])
        let invalid = NuvieAPIError.ratingInvalid("rating must be an integer from 1 to 5")
        guard let rating = try body.integer("rating", orThrow: invalid) else { throw invalid }
        let command = RateMovie(
            userId: userId, movieId: movieId, rating: rating,
            comment: try body.string("comment", maxLength: RateMovie.maximumCommentLength),
            isReview: try body.bool("is_review") ?? false
        )
        let (rated, result) = try await commands.rate(command, eventId: try request.eventId(of: NuvieCatalog.self, userId: userId, action: "rate:\(movieId)"))
        try await readYourWrites.wait(for: result.position)
        return RateResponse(rating: .init(
            userId: userId, movieId: movieId, rating: rated.stars, comment: rated.comment,
            timestamp: NuvieJSON.timestamp(result.recordedAt)
        ))
    }

    /// `{"action":"add"|"remove"}`; answers with the movie as the caller now sees it.
    func changeWatchlist(_ request: Request, context: NuvieSignedInContext) async throws -> MovieDTO {
        let userId = context.userId
        let movieId = try context.parameters.id("movie_id")
        let body = try await JSONBody.decode(request, context: context, fields: ["action"])
        guard let action = WatchlistAction(rawValue: try body.requiredString("action", maxLength: 16)) else {
            throw NuvieAPIError.validation("action must be \"add\" or \"remove\"", field: "action")
        }
        let result = try await commands.changeWatchlist(action, userId: userId, movieId: movieId, eventId: try request.eventId(of: NuvieCatalog.self, userId: userId, action: "watchlist:\(movieId)"))
        return try await movieAfter(result, movieId: movieId, viewer: userId)
    }

    /// `{"event_type":"started"|"paused"|"completed","progress_percent":0–100}`; answers with the movie.
    /// Without `progress_percent`, a start is at 0 and a completion at 100; a pause must say where.
    func watch(_ request: Request, context: NuvieSignedInContext) async throws -> MovieDTO {
        let userId = context.userId
        let movieId = try context.parameters.id("movie_id")
        let body = try await JSONBody.decode(request, context: context, fields: ["event_type", "progress_percent"])
        guard let type = WatchEventType(rawValue: try body.requiredString("event_type", maxLength: 16)) else {
            throw NuvieAPIError.validation("event_type must be started, paused or completed", field: "event_type")
        }
        let invalid = NuvieAPIError.validation("progress_percent must be an integer from 0 to 100", field: "progress_percent")
        let given = try body.integer("progress_percent", orThrow: invalid)
        guard let progress = given ?? [.started: 0, .completed: 100][type] else {
            throw NuvieAPIError.validation("progress_percent is required when pausing", field: "progress_percent")
        }
        let result = try await commands.recordWatch(type, progressPercent: progress, userId: userId, movieId: movieId, eventId: try request.eventId(of: NuvieCatalog.self, userId: userId, action: "watch:\(movieId)"))
        return try await movieAfter(result, movieId: movieId, viewer: userId)
    }

    /// `{"user_ids": [2, 8]}`: recommends the film to those friends (all must be friends).
    func recommend(_ request: Request, context: NuvieSignedInContext) async throws -> RecommendResponse {
        let userId = context.userId
        let movieId = try context.parameters.id("movie_id")
        let body = try await JSONBody.decode(request, context: context, fields: ["user_ids"])
        guard let recipients = try body.idList("user_ids", maxCount: FriendshipDecisions.maximumRecipients) else {
            throw NuvieAPIError.validation("user_ids is required", field: "user_ids")
        }
        let result = try await commands.recommend(
            movieId: movieId, by: userId, to: recipients, eventId: try request.eventId(of: NuvieCatalog.self, userId: userId, action: "recommend:\(movieId)")
        )
        try await readYourWrites.wait(for: result.position)
        var seen = Set<Int64>()
        return RecommendResponse(
            movieId: movieId, recommendedTo: recipients.filter { seen.insert($0).inserted },
            timestamp: NuvieJSON.timestamp(result.recordedAt)
        )
    }

    private func movieAfter(_ result: CommandResult, movieId: Int64, viewer: Int64) async throws -> MovieDTO {
        try await readYourWrites.wait(for: result.position)
        guard let movie = try movies.movie(id: movieId, viewer: viewer) else { throw NuvieAPIError.movieNotFound(movieId) }
        return await withScores(MovieDTO(movie), viewer: viewer)
    }

    /// The movie with the viewer's `ai_score` and `social_score`. They are extras on this screen:
    /// without a model (yet) they stay null rather than fail the request.
    private func withScores(_ movie: MovieDTO, viewer: Int64) async -> MovieDTO {
        var movie = movie
        if let scores = try? await recommendations.engine.scores(userId: viewer, movieId: movie.movieId) {
            movie.aiScore = scores.aiScore
            movie.socialScore = scores.socialScore
        }
        return movie
    }

    func listReviews(_ request: Request, context: NuvieSignedInContext) async throws -> ListResponse<ReviewDTO> {
        let viewer = context.userId
        let movieId = try context.parameters.id("movie_id")
        let page = try Pagination(request)
        guard try recommendations.inputs.movieExists(movieId) else { throw NuvieAPIError.movieNotFound(movieId) }
        let found = try reviews.reviews(movieId: movieId, viewer: viewer, limit: page.limit, offset: page.offset)
        return ListResponse(key: "reviews", items: found.items.map(ReviewDTO.init), totalCount: found.totalCount, page: page)
    }
}
