import Hummingbird
import NuvieProjections
import ProductHosting
import ReadModels

/// `GET /movies/search?q=&genres=&limit=&offset=` and `GET /movies/trending?window_days=&limit=&offset=`.
struct DiscoveryController: Sendable {
    let search: SearchQueries
    let pages = RememberedAnswers(maximumBytes: 16 << 20)
    static let maximumQueryLength = 200
    static let maximumGenres = 32
    static let maximumGenreBytes = 64
    static let defaultWindowDays = 7

    func register(on movies: RouteCollection<NuvieSignedInContext>) -> RouteCollection<NuvieSignedInContext> {
        movies
            .get("search", use: searchMovies)
            .get("trending", use: trending)
    }

    /// A page is the same for every viewer at one revision of the catalog and the ratings: its bytes
    /// are remembered by the request's parameters until the revision moves.
    func searchMovies(_ request: Request, context: NuvieSignedInContext) async throws -> Response {
        let page = try Pagination(request)
        let query = try request.queryText("q") ?? ""
        guard query.count <= Self.maximumQueryLength else {
            throw NuvieAPIError.validation("q must be at most \(Self.maximumQueryLength) characters", field: "q")
        }
        let genres = try Self.genres(request)
        let parameters = [query, genres.joined(separator: ","), String(page.limit), String(page.offset)].joined(separator: "\u{1}")
        if let known = pages.body(for: parameters, revision: try search.revision()) { return JSONWriter.response(known) }
        let (found, revision) = try search.searchWithRevision(query, genres: genres, limit: page.limit, offset: page.offset)
        var json = JSONWriter()
        ListResponse(key: "movies", items: found.items.map(MovieSummaryDTO.init), totalCount: found.totalCount, page: page).write(to: &json)
        let body = ByteBuffer(bytes: json.bytes)
        pages.keep(body, for: parameters, revision: revision)
        return JSONWriter.response(body)
    }

    /// The `genres` filter, each once as it matches (ASCII letters in either case, as SQLite's NOCASE)
    /// and in one order, so that a long or repeated list costs neither the search nor the remembered
    /// pages more than a short one.
    static func genres(_ request: Request) throws -> [String] {
        let named = (try request.queryText("genres") ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let genres = Set(named.filter { !$0.isEmpty }.map(asciiLowercased))
        guard genres.count <= maximumGenres, genres.allSatisfy({ $0.utf8.count <= maximumGenreBytes }) else {
            throw NuvieAPIError.validation("genres must name at most \(maximumGenres) genres of at most \(maximumGenreBytes) bytes", field: "genres")
        }
        return genres.sorted()
    }

    private static func asciiLowercased(_ text: String) -> String {
        String(decoding: text.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }

    func trending(_ request: Request, context: NuvieSignedInContext) async throws -> TrendingResponse {
        let page = try Pagination(request)
        let days = try Pagination.integer(request, "window_days", default: Self.defaultWindowDays, range: 1...365)
        return TrendingResponse(try search.trending(days: days, limit: page.limit, offset: page.offset), days: days, page: page)
    }
}

