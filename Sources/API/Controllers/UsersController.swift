import Hummingbird
import Projections

/// `GET /users/me/watchlist`: the caller's watchlist, newest first. Private to its owner.
struct UsersController: Sendable {
    let movies: MovieQueries

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .get("me/watchlist", use: watchlist)
    }

    func watchlist(_ request: Request, context: AppRequestContext) async throws -> ListResponse<MovieSummaryDTO> {
        let userId = try context.requireUser()
        let page = try Pagination(request)
        let found = try movies.watchlist(userId: userId, limit: page.limit, offset: page.offset)
        return ListResponse(key: "movies", items: found.items.map(MovieSummaryDTO.init), totalCount: found.totalCount, page: page)
    }
}
