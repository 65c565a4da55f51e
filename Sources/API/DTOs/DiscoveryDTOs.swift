import Hummingbird
import Projections

/// `GET /movies/trending`: films with their first-rating count in the window, the window itself,
/// and the pagination envelope.
struct TrendingResponse: ResponseEncodable, Sendable {
    struct Movie: Encodable, Sendable {
        var movieId: Int64
        var title: String
        @Nullable var posterUrl: String?
        var genres: [String]
        @Nullable var releaseDate: String?
        @Nullable var rating: Double?
        @Nullable var aiScore: Int?
        var windowRatingCount: Int
    }

    struct Window: Encodable, Sendable {
        var days: Int
        @Nullable var from: String?
        @Nullable var to: String?
    }

    var movies: [Movie]
    var window: Window
    var totalCount: Int
    var limit: Int
    var offset: Int
    var hasMore: Bool

    init(_ trending: TrendingPage, days: Int, page: Pagination) {
        movies = trending.page.items.map { item in
            let summary = MovieSummaryDTO(item.movie)
            return Movie(
                movieId: summary.movieId, title: summary.title, posterUrl: summary.posterUrl, genres: summary.genres,
                releaseDate: summary.releaseDate, rating: summary.rating, aiScore: summary.aiScore, windowRatingCount: item.windowRatingCount
            )
        }
        window = Window(
            days: days, from: trending.from.map { ContractJSON.timestamp(epochSeconds: $0) }, to: trending.to.map { ContractJSON.timestamp(epochSeconds: $0) }
        )
        totalCount = trending.page.totalCount
        limit = page.limit
        offset = page.offset
        hasMore = page.offset + movies.count < totalCount
    }
}
