import HTTPServing
import NuvieDomain
import Hummingbird
import NuvieProjections

/// `GET /movies/{movie_id}`, field for field as in the contract.
struct MovieDTO: ResponseGenerator, Encodable, Sendable {
    var movieId: Int64
    var title: String
    var genres: [String]
    @Nullable var posterUrl: String?
    @Nullable var overview: String?
    /// MovieLens has only the year: served as `YYYY-01-01`.
    @Nullable var releaseDate: String?
    @Nullable var tmdbId: Int64?
    @Nullable var rating: Double?
    @Nullable var ratingCount: Int?
    @Nullable var userRating: Int?
    @Nullable var aiScore: Int?
    @Nullable var socialScore: Int?
    var inWatchlist: Bool
    @Nullable var watchStatus: String?

    init(_ movie: MovieDetail) {
        movieId = movie.movieId
        title = movie.title
        genres = movie.genres
        posterUrl = nil
        overview = nil
        releaseDate = contractReleaseDate(year: movie.year)
        tmdbId = movie.tmdbId
        rating = movie.ratingAverage.map { rounded($0) }
        ratingCount = movie.ratingCount
        userRating = movie.viewerRating.map(MovieRated.stars)
        aiScore = nil
        socialScore = nil
        inWatchlist = movie.inViewerWatchlist
        watchStatus = movie.viewerWatchStatus
    }
}

extension MovieDTO: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("movie_id", movieId)
            json.field("title", title)
            json.field("genres", genres)
            json.field("poster_url", posterUrl)
            json.field("overview", overview)
            json.field("release_date", releaseDate)
            json.field("tmdb_id", tmdbId)
            json.field("rating", rating)
            json.field("rating_count", ratingCount)
            json.field("user_rating", userRating)
            json.field("ai_score", aiScore)
            json.field("social_score", socialScore)
            json.field("in_watchlist", inWatchlist)
            json.field("watch_status", watchStatus)
        }
    }
}

/// A film in a list (watchlist): the contract's search-result subset of the movie.
struct MovieSummaryDTO: Encodable, Sendable {
    var movieId: Int64
    var title: String
    @Nullable var posterUrl: String?
    var genres: [String]
    @Nullable var releaseDate: String?
    @Nullable var rating: Double?
    @Nullable var aiScore: Int?

    init(_ movie: MovieSummary) {
        movieId = movie.movieId
        title = movie.title
        posterUrl = nil
        genres = movie.genres
        releaseDate = contractReleaseDate(year: movie.year)
        rating = movie.ratingAverage.map { rounded($0) }
        aiScore = nil
    }
}

extension MovieSummaryDTO: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("movie_id", movieId)
            json.field("title", title)
            json.field("poster_url", posterUrl)
            json.field("genres", genres)
            json.field("release_date", releaseDate)
            json.field("rating", rating)
            json.field("ai_score", aiScore)
        }
    }
}

/// MovieLens knows only the year of release: the contract's date is `YYYY-01-01`, or null without a year.
private func contractReleaseDate(year: Int?) -> String? {
    year.map { year in
        let digits = String(abs(year))
        return (year < 0 ? "-" : "") + String(repeating: "0", count: max(0, 4 - digits.count)) + digits + "-01-01"
    }
}
