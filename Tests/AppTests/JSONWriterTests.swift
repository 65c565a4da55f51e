@testable import NuvieAPI
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
@testable import NuvieProjections
import Testing

/// The hand-written JSON of the hottest responses must say exactly what their `Encodable` form says.
@Suite(.timeLimit(.minutes(3))) struct JSONWriterTests {
    private let awkward = "Amélie \"le fabuleux\" \\ destin / 東京 🎬\n\t\r\u{01}\u{1F}"

    @Test func aMovieWritesWhatItEncodes() throws {
        let full = MovieDetail(
            movieId: 1, title: awkward, genres: ["Comedy", "Romance"], year: 2001, tmdbId: 194, ratingAverage: 4.183333,
            ratingCount: 120, viewerRating: 4.5, inViewerWatchlist: true, viewerWatchStatus: "completed"
        )
        var scored = MovieDTO(full)
        scored.aiScore = 87
        scored.socialScore = 0
        let bare = MovieDetail(
            movieId: 9_000_000_001, title: "", genres: [], year: nil, tmdbId: nil, ratingAverage: nil,
            ratingCount: 0, viewerRating: nil, inViewerWatchlist: false, viewerWatchStatus: nil
        )
        for movie in [scored, MovieDTO(bare), MovieDTO(MovieDetail(
            movieId: 5, title: "Old", genres: ["(no genres listed)"], year: 987, tmdbId: 5, ratingAverage: 3,
            ratingCount: 1, viewerRating: 0.5, inViewerWatchlist: false, viewerWatchStatus: nil
        ))] {
            try expectSameJSON(movie)
        }
        #expect(try parsed(written(MovieDTO(bare)))["release_date"] is NSNull)
    }

    @Test func anActivityPageWritesWhatItEncodes() throws {
        let items = ActivityItem.Kind.allCases.enumerated().map { index, kind in
            ActivityItem(
                activityId: Int64(100 + index), userId: 7, userName: index == 0 ? awkward : "Ana", userAvatar: index == 1 ? "https://x/a.png" : nil,
                movieId: 3, movieTitle: "Heat", kind: kind, rating: kind == .rating ? 3.5 : nil,
                comment: kind == .review ? awkward : nil, occurredAt: 1_705_314_600
            )
        }
        try expectSameJSON(ListResponse(key: "activities", items: items.map(ActivityDTO.init), totalCount: 42, page: try page("limit=5&offset=3")))
        try expectSameJSON(ListResponse(key: "activities", items: [ActivityDTO](), totalCount: 0, page: try page("")))
    }

    @Test func aSearchPageWritesWhatItEncodes() throws {
        let films = [
            MovieSummary(movieId: 260, title: "Star Wars: Episode IV - A New Hope", genres: ["Action", "Sci-Fi"], year: 1977, ratingAverage: 4.231),
            MovieSummary(movieId: 2, title: awkward, genres: [], year: nil, ratingAverage: nil),
        ]
        try expectSameJSON(ListResponse(key: "movies", items: films.map(MovieSummaryDTO.init), totalCount: 2, page: try page("limit=2")))
    }

    @Test func aReviewPageWritesWhatItEncodes() throws {
        let reviews = [
            ReviewItem(reviewId: 113_290, userId: 567, userName: awkward, userAvatar: nil, movieId: 1, rating: 3.5, comment: awkward,
                       updatedAt: 1_525_286_013, likes: 2, viewerLiked: true),
            ReviewItem(reviewId: 9, userId: 2, userName: "Ana", userAvatar: "https://x/a.png", movieId: 1, rating: 5, comment: nil,
                       updatedAt: 0, likes: 0, viewerLiked: false),
        ]
        try expectSameJSON(ListResponse(key: "reviews", items: reviews.map(ReviewDTO.init), totalCount: 7, page: try page("limit=2&offset=1")))
    }

    @Test func aRatingWritesWhatItEncodes() throws {
        for comment in [awkward, nil] {
            try expectSameJSON(RateResponse(rating: .init(
                userId: 9_000_000_001, movieId: 1, rating: 5, comment: comment, timestamp: NuvieJSON.timestamp(epochSeconds: 1_705_314_600)
            )))
        }
    }

    @Test func controlCharactersAreEscapedAndTheRestWrittenAsItIs() throws {
        let text = String(decoding: try written(ListResponse(key: "movies", items: [MovieSummaryDTO(
            MovieSummary(movieId: 1, title: "a/b \"c\" \\ \n\u{01} é", genres: [], year: nil, ratingAverage: nil)
        )], totalCount: 1, page: try page(""))), as: UTF8.self)
        #expect(text.contains(#""title":"a/b \"c\" \\ \n\u0001 é""#))
    }

    private func expectSameJSON<Value: JSONWritable & Encodable>(_ value: Value, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let encoded = try parsed(NuvieJSON.encoder().encode(value))
        let handWritten = try parsed(written(value))
        #expect(handWritten == encoded, sourceLocation: sourceLocation)
    }

    private func written(_ value: some JSONWritable) throws -> Data {
        var json = JSONWriter()
        value.write(to: &json)
        return Data(json.bytes)
    }

    private func parsed(_ data: Data) throws -> NSDictionary {
        try #require(try JSONSerialization.jsonObject(with: data) as? NSDictionary)
    }

    private func page(_ query: String) throws -> Pagination {
        try Pagination(Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/list?\(query)"),
            body: RequestBody(buffer: ByteBuffer())
        ))
    }
}

@Suite(.timeLimit(.minutes(3))) struct ContractTimestampTests {
    @Test func timestampsAreWhatTheISO8601FormatStyleWrites() {
        var generator = SystemRandomNumberGenerator()
        let style = Date.ISO8601FormatStyle(timeZone: .gmt)
        let chosen: [TimeInterval] = [0, -1, 86_399, 86_400, 951_782_400, 951_868_799.999, 1_705_314_600, 4_107_542_399, -2_208_988_800, 253_402_300_799]
        for seconds in chosen + (0..<5_000).map({ _ in Double(Int64.random(in: -5_000_000_000...6_000_000_000, using: &generator)) + Double.random(in: 0..<1, using: &generator) }) {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(NuvieJSON.timestamp(date) == date.formatted(style), "\(seconds)")
        }
        #expect(NuvieJSON.timestamp(epochSeconds: 1_705_314_600) == "2024-01-15T10:30:00Z")
        #expect(NuvieJSON.timestamp(epochSeconds: 951_782_400) == "2000-02-29T00:00:00Z")
    }
}
