import Foundation
import NuvieMovieLens
import NuvieRecommendations
import TestSupport
import Testing

/// `tuningNeverSeesTheTestPart` tunes twice, 1,344 candidates each: up to 90 s in a debug build while
/// every other suite runs beside it.
@Suite(.timeLimit(.minutes(5))) struct EvaluationTests {
    @Test func readsEveryMovieLensLayout() throws {
        let csv = try RatingsFile.parse("userId,movieId,rating,timestamp\n1,10,4.5,100\n2,20,3.0,200\n").ratings
        let tsv = try RatingsFile.parse("1\t10\t4.5\t100\n2\t20\t3\t200\n").ratings
        let dat = try RatingsFile.parse("1::10::4.5::100\n2::20::3::200\n").ratings
        #expect(csv == tsv && csv == dat)
        #expect(csv == [RatingRecord(userId: 1, movieId: 10, rating: 4.5, timestamp: 100), RatingRecord(userId: 2, movieId: 20, rating: 3, timestamp: 200)])
        #expect(throws: RatingsFileError.self) { try RatingsFile.parse("1,10,four,100\n") }
        #expect(throws: RatingsFileError.self) { try RatingsFile.parse("userId,movieId,rating,timestamp\n") }
    }

    /// Genres beside the ratings in each layout: ml-latest's CSV, ML-1M's `::` in Latin-1, ML-100K's
    /// flags named by `u.genre` (its `unknown` no genre; without the file, none), CRLF line ends.
    @Test func readsEveryMovieLensFilmsLayout() throws {
        let directory = try TemporaryDirectory()
        func write(_ name: String, _ bytes: [UInt8]) throws -> URL {
            let url = directory.url.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            return url
        }
        let latin1 = Array("Mis".utf8) + [0xE9] + Array("rables (1998)".utf8)
        let csv = try write("movies.csv", Array("movieId,title,genres\n7,\"Heat, again (1995)\",Action|Crime\n8,Mis(1998),(no genres listed)\n".utf8))
        let dat = try write("movies.dat", Array("7::Heat: again (1995)::Action|Crime\n8::".utf8) + latin1 + Array("::Drama\n".utf8))
        let genres = try write("u.genre", Array("unknown|0\r\nAction|1\r\nCrime|2\r\nDrama|3\r\n\r\n".utf8))
        let item = try write("u.item", Array("7|Heat | again (1995)|01-Jan-1995||http://x|0|1|1|0\r\n8|".utf8) + latin1
            + Array("|01-Jan-1998||http://y|0|0|0|1\r\n9|Lost (1999)|01-Jan-1999||http://z|1|0|0|0\r\n".utf8))
        #expect(try RatingsFile.readMovies(csv).genres == [7: ["Action", "Crime"], 8: []])
        let fromDat = try RatingsFile.readMovies(dat), fromItem = try RatingsFile.readMovies(item)
        #expect(fromDat.genres == [7: ["Action", "Crime"], 8: ["Drama"]])
        #expect(fromItem.genres == [7: ["Action", "Crime"], 8: ["Drama"], 9: []])
        #expect(fromDat.titles[7] == "Heat: again (1995)" && fromDat.titles[8] == "Misérables (1998)")
        #expect(fromItem.titles[7] == "Heat | again (1995)" && fromItem.titles[8] == "Misérables (1998)")
        try FileManager.default.removeItem(at: genres)
        let withoutNames = try RatingsFile.readMovies(item)
        #expect(withoutNames.genres.values.allSatisfy(\.isEmpty) && withoutNames.titles[8] == "Misérables (1998)" && withoutNames.titles[9] == "Lost (1999)")
    }

    @Test func rowsThatAreNotRatingsAreRejectedWithTheirLineAndWhy() throws {
        let text = [
            "1\t10\t4\t100", "0\t10\t4\t100", "2\t-3\t4\t100", "2\t10\t0\t100", "2\t11\t3.7\t100", "2\t12\t5.5\t100",
            "3\t12\t4\t-5", "3\t13\tx\t100", "3\t14\t4", "", "4\t15\t0.5\t0",
        ].joined(separator: "\n")
        let (ratings, rejected) = try RatingsFile.parse(text, file: "u.data")
        #expect(ratings == [RatingRecord(userId: 1, movieId: 10, rating: 4, timestamp: 100), RatingRecord(userId: 4, movieId: 15, rating: 0.5, timestamp: 0)])
        #expect(rejected.count == 8 && rejected.rows.map(\.line) == [2, 3, 4, 5, 6, 7, 8, 9])
        #expect(rejected.rows.map(\.file) == Array(repeating: "u.data", count: 8))
        #expect(rejected.rows[0].reason.contains("user id 0") && rejected.rows[3].reason.contains("rating 3.7"))
        let many = (1...30).map { "0\t\($0)\t4\t100" }.joined(separator: "\n") + "\n1\t1\t4\t1"
        let lots = try RatingsFile.parse(many, file: "u.data").rejected
        #expect(lots.count == 30 && lots.rows.count == RejectedRows.shown && lots.report.hasSuffix("… and 10 more rejected rows (30 in all)"))
    }

    @Test func temporalSplitHoldsOutEachUsersLatestFifth() {
        let ratings = (1...10).map { RatingRecord(userId: 1, movieId: Int64($0), rating: 4, timestamp: Int64(100 - $0)) }
            + (1...5).map { RatingRecord(userId: 2, movieId: Int64($0), rating: 4, timestamp: Int64($0)) }
        let split = Split(ratings, kind: .temporal)
        #expect(split.test[1] == [1, 2])
        #expect(split.test[2] == [5])
        #expect(split.train.count == 12)
    }

    /// A seeded fifth of the users, held out whole; of each, the first k ratings in time order are
    /// known and the next 10 are to be found.
    @Test func newUsersAreAFifthOfTheUsersAndTheirNextRatingsAreTheTarget() {
        let ratings: [RatingRecord] = (1...10).flatMap { (user: Int64) in
            (1...15).map { (n: Int64) in RatingRecord(userId: user, movieId: 100 * user + n, rating: 4, timestamp: 1_000 - n) }
        }
        let newUsers = NewUsers(ratings, seed: 7)
        let next = newUsers.next(after: 3)
        #expect(next.count == 2, "a fifth of 10 users: \(next.keys.sorted())")
        for (user, films) in next {
            // Each user's ratings run backwards in time: their first three are films 15, 14 and 13.
            #expect(films == Set((3...12).map { 100 * user + $0 }), "user \(user): \(films.sorted())")
        }
        #expect(NewUsers(ratings, seed: 7).next(after: 3) == next)
        #expect(NewUsers(ratings, seed: 8).next(after: 3).keys.sorted() != next.keys.sorted())
        #expect(newUsers.next(after: 14).values.map(\.count) == [1, 1])
        #expect(newUsers.next(after: 15).isEmpty, "a user with no rating after their first k is not evaluated")
    }

    /// The new users' rows learn nothing from the new users: films only they rated, together, are
    /// never found for them, though each had the first of them among their first three ratings.
    @Test func newUsersRatingsTrainNoModelOfTheirRows() throws {
        let others: [RatingRecord] = (1...10).flatMap { (user: Int64) in
            (1...12).map { (n: Int64) in RatingRecord(userId: user, movieId: (user + n) % 20 + 1, rating: 4, timestamp: n) }
        }
        let chosen = Set(NewUsers(others, seed: 42).next(after: 3).keys)
        // Each new user: film 100, two films everyone rates, then films 101–107, which no one else rates.
        let theirs: [RatingRecord] = chosen.flatMap { user in
            ([100, 1, 2] + Array(101...107)).enumerated().map { RatingRecord(userId: user, movieId: $1, rating: 5, timestamp: Int64($0 + 1)) }
        }
        var constants = OfflineEvaluation.Constants(served: try RecommenderConstants("minimum-ratings=1"))
        constants.ease = .init(minimumRatings: 1, lambda: 1, keepsNegativeWeights: true)
        let evaluation = OfflineEvaluation(
            ratings: others.filter { !chosen.contains($0.userId) } + theirs, split: .temporal, seed: 42, constants: constants
        )
        #expect(Set(evaluation.newUsers.next(after: 3).keys) == chosen && chosen.count == 2)
        for result in try evaluation.run() where result.model.hasSuffix("(new, first 3)") {
            #expect(result.users == 2 && result.ndcg == 0, "\(result.model) found a film only new users rated: \(result)")
        }
    }

    @Test func randomSplitIsSeeded() {
        let ratings = (1...40).map { RatingRecord(userId: Int64($0 % 4), movieId: Int64($0), rating: 4, timestamp: 0) }
        #expect(Split(ratings, kind: .random, seed: 1).test == Split(ratings, kind: .random, seed: 1).test)
        #expect(Split(ratings, kind: .random, seed: 1).test != Split(ratings, kind: .random, seed: 2).test)
        #expect(Split(ratings, kind: .random, seed: 1).test.values.allSatisfy { $0.count == 2 })
    }

    @Test func theServedModelFindsTasteWherePopularityCannot() throws {
        let directory = replayFixtures.appendingPathComponent("movielens-taste")
        let evaluation = OfflineEvaluation(
            ratings: try RatingsFile.read(directory.appendingPathComponent("ratings.csv")).ratings, split: .random, seed: 42,
            movies: try RatingsFile.readMovies(directory.appendingPathComponent("movies.csv")),
            constants: .init(served: try RecommenderConstants("lambda=10 minimum-ratings=2"))
        )
        let results = try evaluation.run()
        let coldStart = { (kind: String) -> [String] in
            [3, 5, 10].flatMap { first in ["popular", "item-knn", "ease", "served"].map { "\($0) (\(kind)first \(first))" } }
        }
        #expect(results.map(\.model) == ["popular", "item-knn", "ease", "als", "served"] + coldStart("") + coldStart("new, "))
        for result in results {
            for metric in [result.precision, result.recall, result.ndcg, result.hitRate, result.coverage] { #expect((0...1).contains(metric)) }
        }
        for result in results.prefix(5) { #expect(result.users == evaluation.split.test.count) }
        for first in [3, 5, 10] {
            let newUsers = results.first { $0.model == "served (new, first \(first))" }
            #expect(newUsers?.users == evaluation.newUsers.next(after: first).count)
        }
        #expect(!evaluation.newUsers.next(after: 3).isEmpty, "the fixture's new users have more than 3 ratings")
        #expect(results[3].ndcg > results[0].ndcg, "ALS finds taste too")
        #expect(results[4].ndcg > results[0].ndcg)
    }

    /// Tuning reads the training part only: changing what the test part holds changes no choice.
    @Test func tuningNeverSeesTheTestPart() async throws {
        let directory = replayFixtures.appendingPathComponent("movielens-taste")
        let ratings = try RatingsFile.read(directory.appendingPathComponent("ratings.csv")).ratings
        let movies = try RatingsFile.readMovies(directory.appendingPathComponent("movies.csv"))
        let original = OfflineEvaluation(ratings: ratings, split: .temporal, movies: movies)
        let random = OfflineEvaluation(ratings: ratings, split: .random, movies: movies)
        let heldOut = Set(original.split.test.flatMap { user, films in films.map { "\(user)-\($0)" } })
        // The same training part, every held-out rating flipped and moved to another film.
        let altered = ratings.map { rating -> RatingRecord in
            guard heldOut.contains("\(rating.userId)-\(rating.movieId)") else { return rating }
            return RatingRecord(userId: rating.userId, movieId: rating.movieId + 1_000, rating: 5.5 - rating.rating, timestamp: rating.timestamp)
        }
        let changed = OfflineEvaluation(ratings: altered, split: .temporal, movies: movies)
        #expect(changed.split.train == original.split.train && changed.split.test != original.split.test)
        // Off the cooperative threads: tuning ranks on every core, for up to a minute and a half here.
        let (choice, changedChoice) = try await onAThreadOfItsOwn {
            (try Tuning.choose(for: [original, random], seed: 42), try Tuning.choose(for: [changed, random], seed: 42))
        }
        #expect(changedChoice == choice)
        #expect(choice.validation.keys.sorted { $0.rawValue < $1.rawValue } == [.random, .temporal])
        let grid = Tuning.lambdas.count * Tuning.minimumRatings.count
        let scoring = Tuning.genreShares.count * Tuning.recencies.count * Tuning.sequenceWeights.count * Tuning.otherRatingsWeights.count
            * Tuning.fullHistories.count
        // The served model's weights are plain EASE's, as its search chose them.
        let easeChoices = Set(choice.ease.values)
        #expect(easeChoices.contains(.init(minimumRatings: choice.constants.minimumRatings, lambda: choice.constants.lambda)))
        #expect(choice.candidates == grid * 2 + scoring * easeChoices.count + 2 * Tuning.alsGrid.count)
    }
}
