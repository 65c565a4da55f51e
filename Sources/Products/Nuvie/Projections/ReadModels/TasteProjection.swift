import ReadModels
import EventSourcing
import NuvieDomain
import GRDB
import OrderedCollections

/// Each user's taste by genre: how many films of the genre they rated, how many they liked (4 stars
/// or more) and the sum of their ratings. Keeps its own film → genres map so that it folds
/// `movie-added` and `movie-rated` without reading another projection's tables.
struct TasteProjection: Projection {
    let name = "taste"
    let version = 1
    let tables = ["tasteMovieGenre", "userGenre"]

    func createSchema(_ db: Database) throws {
        try db.create(table: "tasteMovieGenre") { t in
            t.primaryKey { t.column("movieId", .integer); t.column("genre", .text) }
        }
        try db.create(table: "userGenre") { t in
            t.primaryKey { t.column("userId", .integer); t.column("genre", .text) }
            t.column("ratedCount", .integer).notNull()
            t.column("likedCount", .integer).notNull()
            t.column("ratingSum", .double).notNull()
        }
        try db.create(index: "userGenreByGenre", on: "userGenre", columns: ["genre", "likedCount"])
    }

    func apply(_ recorded: Recorded<NuvieEvent>, _ db: Database) throws {
        switch recorded.event {
        case .movieAdded(let movie):
            try db.run("DELETE FROM tasteMovieGenre WHERE movieId = ?", [movie.movieId])
            for genre in movie.genres {
                try db.run("INSERT OR IGNORE INTO tasteMovieGenre (movieId, genre) VALUES (?, ?)", [movie.movieId, genre])
            }
        case .movieRated(let rated):
            try addRatings([rated], db)
        case .userErased(let erased):
            try db.run("DELETE FROM userGenre WHERE userId = ?", [erased.userId])
        case .movieTagged, .identityClaimed, .userRegistered, .reviewLiked, .reviewUnliked, .watchlistAdded, .watchlistRemoved,
             .watchProgressed, .friendRequested, .friendRequestAnswered, .friendRequestCancelled, .friendRemoved, .userBlocked,
             .userUnblocked, .movieRecommended, .profileUpdated, .termsAccepted, .sessionStarted, .sessionRefreshed,
             .sessionsEnded:
            break
        }
    }

    /// Gathers each run of events between two `movie-added`s (which change the film → genres map)
    /// and writes each touched (user, genre) row once.
    func apply(_ events: ArraySlice<Recorded<NuvieEvent>>, _ db: Database) throws {
        try apply(events, db, gathering: { recorded -> Gathered<MovieRated> in
            switch recorded.event {
            case .movieAdded, .userErased: .alone
            case .movieRated(let rated): .item(rated)
            case .movieTagged, .identityClaimed, .userRegistered, .reviewLiked, .reviewUnliked, .watchlistAdded,
                 .watchlistRemoved, .watchProgressed, .friendRequested, .friendRequestAnswered, .friendRequestCancelled,
                 .friendRemoved, .userBlocked, .userUnblocked, .movieRecommended, .profileUpdated, .termsAccepted,
                 .sessionStarted, .sessionRefreshed, .sessionsEnded: .nothing
            }
        }, flush: addRatings)
    }

    /// Adds the ratings to their users' genre rows; a re-rating adds only its difference. Ratings are
    /// multiples of 0.5, so the sums are exact in any order.
    private func addRatings(_ ratings: [MovieRated], _ db: Database) throws {
        var genres: [Int64: [String]] = [:]
        var deltas = OrderedDictionary<UserGenre, (rated: Int, liked: Int, sum: Double)>()
        let liked = { (rating: Double?) in (rating ?? 0) >= MovieRated.likedThreshold ? 1 : 0 }
        for rated in ratings {
            if genres[rated.movieId] == nil {
                genres[rated.movieId] = try String.fetchAll(
                    db.cachedStatement(sql: "SELECT genre FROM tasteMovieGenre WHERE movieId = ?"), arguments: [rated.movieId]
                )
            }
            for genre in genres[rated.movieId] ?? [] {
                let key = UserGenre(userId: rated.userId, genre: genre)
                deltas[key, default: (0, 0, 0)].rated += rated.previousRating == nil ? 1 : 0
                deltas[key, default: (0, 0, 0)].liked += liked(rated.rating) - liked(rated.previousRating)
                deltas[key, default: (0, 0, 0)].sum += rated.rating - (rated.previousRating ?? 0)
            }
        }
        for (key, delta) in deltas {
            try db.run("""
                INSERT INTO userGenre (userId, genre, ratedCount, likedCount, ratingSum) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (userId, genre) DO UPDATE SET ratedCount = ratedCount + excluded.ratedCount,
                    likedCount = likedCount + excluded.likedCount, ratingSum = ratingSum + excluded.ratingSum
                """, [key.userId, key.genre, delta.rated, delta.liked, delta.sum])
        }
    }
}

private struct UserGenre: Hashable {
    var userId: Int64
    var genre: String
}
