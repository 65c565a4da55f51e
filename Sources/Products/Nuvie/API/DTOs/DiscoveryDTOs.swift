import HTTPServing
import Hummingbird
import NuvieProjections

/// `GET /movies/trending`: films with their first-rating count in the window, the window itself,
/// and the pagination envelope.
struct TrendingResponse: ResponseEncodable, Sendable {
    /// A film as lists show it, plus its count in the window.
    struct Movie: Encodable, Sendable {
        var summary: MovieSummaryDTO
        var windowRatingCount: Int

        private enum CodingKeys: String, CodingKey { case windowRatingCount }

        func encode(to encoder: any Encoder) throws {
            try summary.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(windowRatingCount, forKey: .windowRatingCount)
        }
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
        movies = trending.page.items.map { Movie(summary: MovieSummaryDTO($0.movie), windowRatingCount: $0.windowRatingCount) }
        window = Window(
            days: days, from: trending.from.map { NuvieJSON.timestamp(epochSeconds: $0) }, to: trending.to.map { NuvieJSON.timestamp(epochSeconds: $0) }
        )
        totalCount = trending.page.totalCount
        limit = page.limit
        offset = page.offset
        hasMore = page.offset + movies.count < totalCount
    }
}
