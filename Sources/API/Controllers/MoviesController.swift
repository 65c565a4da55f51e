import Commands
import Domain
import Hummingbird
import Projections

/// `GET /movies/{movie_id}`, `POST /movies/{movie_id}/rate`, `GET /movies/{movie_id}/reviews`.
struct MoviesController: Sendable {
    let commands: CommandService
    let movies: MovieQueries
    let reviews: ReviewQueries
    let readYourWrites: ReadYourWrites

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .get(":movie_id", use: show)
            .post(":movie_id/rate", use: rate)
            .get(":movie_id/reviews", use: listReviews)
    }

    func show(_ request: Request, context: AppRequestContext) async throws -> MovieDTO {
        let viewer = try context.requireUser()
        let movieId = try context.parameters.id("movie_id")
        guard let movie = try movies.movie(id: movieId, viewer: viewer) else { throw APIError.movieNotFound(movieId) }
        return MovieDTO(movie)
    }

    func rate(_ request: Request, context: AppRequestContext) async throws -> RateResponse {
        let userId = try context.requireUser()
        let movieId = try context.parameters.id("movie_id")
        let body = try await JSONBody.decode(request, context: context)
        let invalid = APIError.ratingInvalid("rating must be an integer from 1 to 5")
        guard let rating = try body.integer("rating", orThrow: invalid) else { throw invalid }
        let command = RateMovie(
            userId: userId, movieId: movieId, rating: rating,
            comment: try body.string("comment", maxLength: RateMovie.maximumCommentLength),
            isReview: try body.bool("is_review") ?? false
        )
        let (rated, result) = try await commands.rate(command, eventId: try request.eventId(userId: userId, action: "rate:\(movieId)"))
        try await readYourWrites.wait(for: result.position)
        return RateResponse(rating: .init(
            userId: userId, movieId: movieId, rating: rated.stars, comment: rated.comment,
            timestamp: ContractJSON.timestamp(result.recordedAt)
        ))
    }

    func listReviews(_ request: Request, context: AppRequestContext) async throws -> ListResponse<ReviewDTO> {
        let viewer = try context.requireUser()
        let movieId = try context.parameters.id("movie_id")
        let page = try Pagination(request)
        guard try movies.movie(id: movieId, viewer: nil) != nil else { throw APIError.movieNotFound(movieId) }
        let found = try reviews.reviews(movieId: movieId, viewer: viewer, limit: page.limit, offset: page.offset)
        return ListResponse(key: "reviews", items: found.items.map(ReviewDTO.init), totalCount: found.totalCount, page: page)
    }
}
