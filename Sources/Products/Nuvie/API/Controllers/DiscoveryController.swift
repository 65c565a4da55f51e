import Hummingbird
import NuvieProjections

/// `GET /movies/search?q=&genres=&limit=&offset=` and `GET /movies/trending?window_days=&limit=&offset=`.
struct DiscoveryController: Sendable {
    let search: SearchQueries
    static let maximumQueryLength = 200
    static let defaultWindowDays = 7

    func register(on movies: RouteCollection<SignedInRequestContext>) -> RouteCollection<SignedInRequestContext> {
        movies
            .get("search", use: searchMovies)
            .get("trending", use: trending)
    }

    func searchMovies(_ request: Request, context: SignedInRequestContext) async throws -> ListResponse<MovieSummaryDTO> {
        let page = try Pagination(request)
        let query = try request.queryText("q") ?? ""
        guard query.count <= Self.maximumQueryLength else {
            throw APIError.validation("q must be at most \(Self.maximumQueryLength) characters", field: "q")
        }
        let genres = (try request.queryText("genres") ?? "")
            .split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let found = try search.search(query, genres: genres, limit: page.limit, offset: page.offset)
        return ListResponse(key: "movies", items: found.items.map(MovieSummaryDTO.init), totalCount: found.totalCount, page: page)
    }

    func trending(_ request: Request, context: SignedInRequestContext) async throws -> TrendingResponse {
        let page = try Pagination(request)
        let days = try Pagination.integer(request, "window_days", default: Self.defaultWindowDays, range: 1...365)
        return TrendingResponse(try search.trending(days: days, limit: page.limit, offset: page.offset), days: days, page: page)
    }
}
