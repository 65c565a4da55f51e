import NuvieDomain
import Foundation
import Testing
@testable import NuvieProjections

@Suite(.timeLimit(.minutes(3))) struct SearchTests {
    let t = Date(timeIntervalSince1970: 1_537_790_400)  // 2018-09-24T12:00:00Z

    func harness() async throws -> ProjectionHarness {
        let harness = try ProjectionHarness()
        let films: [(Int64, String, [String])] = [
            (1, "Superstar", ["Comedy"]), (2, "Stardust", ["Fantasy"]), (3, "Star Wars: Episode IV - A New Hope", ["Sci-Fi", "Action"]),
            (4, "Lone Star", ["Drama"]), (5, "Heat", ["Crime"]), (6, "Dark Stars", ["Sci-Fi"]), (7, "Star", ["Drama"]),
            (8, "Matrix, The", ["Sci-Fi", "Action"]), (9, "Amélie", ["Romance"]),
        ]
        var events: [(stream: String, event: NuvieEvent, at: Date)] = films.map { id, title, genres in
            ("movie-\(id)", .movieAdded(MovieAdded(movieId: id, title: title, genres: genres, year: 2000, tmdbId: nil, imdbId: nil)), t)
        }
        events.append(("user-1", .movieTagged(MovieTagged(userId: 1, movieId: 5, tag: "star cast")), t))
        for (user, movie, day) in [(1, 3, 0), (2, 3, 0), (1, 2, 0), (3, 8, -3), (4, 8, -10), (5, 8, -10), (6, 2, -10), (7, 3, -20)] as [(Int64, Int64, Double)] {
            events.append(("rating-\(user)-\(movie)", .movieRated(MovieRated(userId: user, movieId: movie, rating: 4, previousRating: nil, comment: nil, isReview: false)),
                           t.addingTimeInterval(day * 86_400)))
        }
        try await harness.given(events)
        try harness.runner.catchUp()
        return harness
    }

    /// Runs `body` against the films above, keeping their database open until it returns.
    func withSearch(_ body: (SearchQueries) throws -> Void) async throws {
        let harness = try await harness()
        try withExtendedLifetime(harness) { try body(SearchQueries(database: harness.database)) }
    }

    @Test func resultsRankExactThenPrefixThenWordThenTagThenWordPrefixThenSubstring() async throws {
        try await withSearch { (search: SearchQueries) throws in
            let found = try search.search("star", genres: [], limit: 20, offset: 0)
            // Star (exact); Star Wars before Stardust (both prefixes, Star Wars rated more); Lone Star (word);
            // Heat (tag); Dark Stars (word prefix); Superstar (substring).
            #expect(found.items.map(\.movieId) == [7, 3, 2, 4, 5, 6, 1])
            #expect(found.totalCount == 7)
            let page = try search.search("star", genres: [], limit: 2, offset: 2)
            #expect(page.items.map(\.movieId) == [2, 4] && page.totalCount == 7)
            let pastTheEnd = try search.search("star", genres: [], limit: 2, offset: 50)
            #expect(pastTheEnd.items.isEmpty && pastTheEnd.totalCount == 7)
            #expect(try search.search("st", genres: [], limit: 2, offset: 50).totalCount == found.totalCount)
            #expect(try search.search("", genres: [], limit: 1, offset: 100).totalCount == 9)
        }
    }

    @Test func rememberedMatchesFollowTheCatalogAndTheOrderFollowsTheRatings() async throws {
        let harness = try await harness()
        let search = SearchQueries(database: harness.database)
        #expect(try search.search("star", genres: [], limit: 3, offset: 0).items.map(\.movieId) == [7, 3, 2])
        // Three more ratings put Stardust ahead of Star Wars: the remembered matches are ordered anew.
        try await harness.given((3...5).map { user in
            ("rating-\(user)-2", .movieRated(MovieRated(userId: Int64(user), movieId: 2, rating: 4, previousRating: nil, comment: nil, isReview: false)), t)
        })
        try harness.runner.catchUp()
        #expect(try search.search("star", genres: [], limit: 3, offset: 0).items.map(\.movieId) == [7, 2, 3])
        // A new film and a new tag change what the search finds.
        try await harness.given([
            ("movie-10", .movieAdded(MovieAdded(movieId: 10, title: "Starman", genres: ["Sci-Fi"], year: 1984, tmdbId: nil, imdbId: nil)), t),
            ("user-1", .movieTagged(MovieTagged(userId: 1, movieId: 9, tag: "star")), t),
        ])
        try harness.runner.catchUp()
        let found = try search.search("star", genres: [], limit: 20, offset: 0)
        #expect(found.totalCount == 9)
        #expect(found.items.map(\.movieId).prefix(4) == [7, 2, 3, 10])
        #expect(found.items.contains { $0.movieId == 9 })
        withExtendedLifetime(harness) {}
    }

    @Test func titlesMatchWithTheirArticleInFrontAndWithoutAccentsOrCase() async throws {
        try await withSearch { (search: SearchQueries) throws in
            #expect(try search.search("the matrix", genres: [], limit: 5, offset: 0).items.first?.movieId == 8)
            #expect(try search.search("MATRIX", genres: [], limit: 5, offset: 0).items.map(\.movieId) == [8])
            #expect(try search.search("amelie", genres: [], limit: 5, offset: 0).items.map(\.movieId) == [9])
            #expect(try search.search("  star   wars ", genres: [], limit: 5, offset: 0).items.first?.movieId == 3)
        }
    }

    @Test(arguments: ["\"", "*", "star*", "title:star", "(star", "AND", "NEAR(", "%", "_", "'; DROP TABLE movie; --"])
    func queryTextIsNeverSyntax(_ query: String) async throws {
        try await withSearch { (search: SearchQueries) throws in
            _ = try search.search(query, genres: [], limit: 20, offset: 0)
            #expect(try search.search("%", genres: [], limit: 20, offset: 0).totalCount == 0)
        }
    }

    @Test func genresFilterWithAnyOfThemCaseInsensitively() async throws {
        try await withSearch { (search: SearchQueries) throws in
            #expect(try search.search("", genres: ["sci-fi"], limit: 20, offset: 0).items.map(\.movieId) == [3, 8, 6])
            #expect(try search.search("star", genres: ["DRAMA", "crime"], limit: 20, offset: 0).items.map(\.movieId) == [7, 4, 5])
            #expect(try search.search("star", genres: ["Polka"], limit: 20, offset: 0).totalCount == 0)
            #expect(try search.search("", genres: [], limit: 3, offset: 0).items.map(\.movieId) == [3, 8, 2])
        }
    }

    @Test func trendingCountsFirstRatingsInTheWindowEndingAtTheLastRating() async throws {
        try await withSearch { (search: SearchQueries) throws in
            let week = try search.trending(days: 7, limit: 10, offset: 0)
            // Ties in the window go to the film rated more overall.
                #expect(week.page.items.map(\.movie.movieId) == [3, 8, 2] && week.page.items.map(\.windowRatingCount) == [2, 1, 1])
            #expect(week.to == 1_537_833_599 && week.from == 1_537_228_800)  // 2018-09-24T23:59:59Z, 2018-09-18T00:00:00Z
            let month = try search.trending(days: 30, limit: 10, offset: 0)
            #expect(month.page.items.map(\.movie.movieId) == [3, 8, 2] && month.page.items.map(\.windowRatingCount) == [3, 3, 2])
                #expect(month.page.totalCount == 3)
        }
    }
}
