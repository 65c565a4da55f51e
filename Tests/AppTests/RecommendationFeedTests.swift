import ReadModels
import NuvieApp
import Foundation
import GRDB
import NuvieProjections
import NuvieRecommendations
import TestSupport
import Testing

/// The taste server's model: films with two ratings or more.
let tasteModelParameters = ItemSimilarityModel.Parameters(minimumRatings: 2, lambda: 10)

/// A demo server over `movielens-taste`, its model trained on `tasteModelParameters`.
func withTasteServer(
    _ configure: @escaping (inout NuvieConfiguration) -> Void = { _ in },
    _ body: @Sendable (LiveClient) async throws -> Void
) async throws {
    try await withLiveServer({ configuration in
        configuration.demoDataset = replayFixtures.appendingPathComponent("movielens-taste")
        configuration.modelParameters = tasteModelParameters
        configure(&configuration)
    }, body)
}

@Suite(.timeLimit(.minutes(3))) struct RecommendationFeedTests {
    @Test func theFeedFollowsTheContract() async throws {
        try await withTasteServer { client in
            let token = try await client.devLogin("movielens-1")
            let reply = try await client.send(.get, "/feed/recommendations?limit=5", token: token)
            #expect(reply.status == .ok, "\(reply.text)")
            let items = try #require(reply.json["recommendations"] as? [[String: Any]])
            #expect(items.count == 5)
            #expect(isContractTimestamp(reply.json["last_updated"]))
            #expect((reply.json["total_count"] as? Int ?? 0) >= 5)
            #expect(reply.json["has_more"] as? Bool == true)
            for item in items {
                for key in ["movie_id", "title", "poster_url", "genres", "release_date", "rating", "ai_score", "social_score", "explanation", "friend_ratings"] {
                    #expect(item.keys.contains(key), "missing \(key)")
                }
                #expect(item["poster_url"] is NSNull)
                let score = try #require(item["ai_score"] as? Int)
                #expect((0...100).contains(score))
                let explanation = try #require(item["explanation"] as? [String: Any])
                let factors = try #require(explanation["factors"] as? [[String: Any]])
                #expect(!factors.isEmpty)
                #expect(explanation["primary_reason"] as? String == factors[0]["type"] as? String)
                let weights = factors.compactMap { $0["weight"] as? Double }
                #expect(abs(weights.reduce(0, +) - 1) < 0.001)
                for factor in factors {
                    #expect(["genre_match", "because_you_rated", "similar_users", "friend_activity", "trending", "popular"].contains(factor["type"] as? String ?? ""))
                    #expect(factor["payload"] is [String: Any])
                    #expect((factor["description"] as? String)?.isEmpty == false)
                }
                let friends = try #require(item["friend_ratings"] as? [String: Any])
                #expect(friends["count"] is Int && friends["average"] is NSNumber && friends["friends"] is [Any])
            }
            let next = try await client.send(.get, "/feed/recommendations?limit=5&offset=5", token: token)
            let firstIds = items.compactMap { $0["movie_id"] as? Int }
            let nextIds = (next.json["recommendations"] as? [[String: Any]] ?? []).compactMap { $0["movie_id"] as? Int }
            #expect(Set(firstIds).isDisjoint(with: nextIds))
            for bad in ["limit=0", "limit=101", "offset=-1", "limit=abc"] {
                let rejected = try await client.send(.get, "/feed/recommendations?\(bad)", token: token)
                #expect(rejected.status == .badRequest && rejected.errorCode == "VALIDATION_ERROR")
            }
            #expect(try await client.send(.get, "/feed/recommendations").errorCode == "AUTHENTICATION_REQUIRED")
        }
    }

    /// The shares `NUVIE_RECOMMENDER` sets are the ones served: the popularity blend ending at 80
    /// films known, not 20, gives a user with about ten a quarter of the confidence (at most 0.15,
    /// where the defaults give 0.4 or more), and no genre share leaves no genre factor.
    @Test func theConfiguredConstantsAreServed() async throws {
        try await withTasteServer({ $0.recommender = try! RecommenderConstants("full-history=80 genre-share=0") }) { client in
            let token = try await client.devLogin("movielens-1")
            let items = try #require(try await client.send(.get, "/feed/recommendations?limit=20", token: token).json["recommendations"] as? [[String: Any]])
            #expect(!items.isEmpty)
            for item in items {
                let explanation = try #require(item["explanation"] as? [String: Any])
                #expect((0.01...0.15).contains(explanation["confidence"] as? Double ?? 0), "\(explanation)")
                #expect((explanation["factors"] as? [[String: Any]] ?? []).allSatisfy { $0["type"] as? String != "genre_match" })
            }
        }
    }

    /// Every factor of every item, recomputed from the read models the server folded.
    @Test func everyReasonIsTrueOfTheReadModels() async throws {
        try await withTasteServer { client in
            var types = Set<String>()
            for user in [1, 2, 3, 14, 25] {
                let token = try await client.devLogin("movielens-\(user)")
                let friends = try await client.send(.get, "/friends", token: token).json["friends"] as? [[String: Any]] ?? []
                if let friend = friends.first(where: { $0["status"] as? String == "accepted" })?["user_id"] as? Int {
                    // A friend's recommendation must show as a friend_activity reason.
                    let friendToken = try await client.devLogin("movielens-\(friend)")
                    let unrated = try await unratedFilm(of: user, in: client)
                    let sent = try await client.send(.post, "/movies/\(unrated)/recommend", token: friendToken, body: #"{"user_ids":[\#(user)]}"#)
                    try #require(sent.status == .ok, "\(sent.text)")
                }
                let feed = try await client.send(.get, "/feed/recommendations?limit=50", token: token)
                try #require(feed.status == .ok, "\(feed.text)")
                let items = try #require(feed.json["recommendations"] as? [[String: Any]])
                #expect(!items.isEmpty)
                let facts = try ReadModelFacts(client.dataDirectory, userId: Int64(user))
                for item in items { try facts.check(item) }
                types.formUnion(items.flatMap { ($0["explanation"] as? [String: Any])?["factors"] as? [[String: Any]] ?? [] }.compactMap { $0["type"] as? String })
                if !facts.recommendedBy.isEmpty {
                    let described = items.flatMap { ($0["explanation"] as? [String: Any])?["factors"] as? [[String: Any]] ?? [] }
                        .compactMap { $0["description"] as? String }
                    #expect(described.contains { $0.contains("recommended this to you") })
                }
            }
            #expect(types.isSuperset(of: ["because_you_rated", "similar_users", "genre_match", "friend_activity"]), "\(types)")
        }
    }

    @Test func aNewRatingChangesTheNextFeed() async throws {
        try await withTasteServer { client in
            let token = try await client.devLogin("movielens-2")
            let before = try await client.send(.get, "/feed/recommendations?limit=50", token: token)
            let top = try #require((before.json["recommendations"] as? [[String: Any]])?.first?["movie_id"] as? Int)
            #expect(try await client.send(.post, "/movies/\(top)/rate", token: token, body: #"{"rating":5}"#).status == .ok)
            let after = try await client.send(.get, "/feed/recommendations?limit=50", token: token)
            let items = try #require(after.json["recommendations"] as? [[String: Any]])
            #expect(!items.contains { $0["movie_id"] as? Int == top })
            let seeds = items.flatMap { ($0["explanation"] as? [String: Any])?["factors"] as? [[String: Any]] ?? [] }
                .compactMap { ($0["payload"] as? [String: Any])?["seed_movie_ids"] as? [Int] }.flatMap { $0 }
            #expect(seeds.contains(top))
        }
    }

    @Test func aFilmFinishedWithoutARatingSpeaksForItsNeighbours() async throws {
        try await withTasteServer { client in
            // The model as the server trained it at start, on the same read models.
            let model = try ReadModelFacts(client.dataDirectory, userId: 0).model
            let user = try await client.account("finisher")
            for liked in [1, 2, 3] {
                #expect(try await client.send(.post, "/movies/\(liked)/rate", token: user.token, body: #"{"rating":5}"#).status == .ok)
            }
            let finished = try #require((4...24).map(Int64.init).first { model.covers($0) })
            let neighbour = try #require((4...24).map(Int64.init).filter { $0 != finished && model.covers($0) }
                .max { model.weight(from: finished, to: $0) < model.weight(from: finished, to: $1) })
            try #require(model.weight(from: finished, to: neighbour) > 0)
            let watched = try await client.send(.post, "/movies/\(finished)/watch", token: user.token, body: #"{"event_type":"completed","progress_percent":100}"#)
            #expect(watched.status == .ok, "\(watched.text)")

            let card = try await client.send(.get, "/movies/\(neighbour)/explanation", token: user.token)
            let factors = try #require((card.json["explanation"] as? [String: Any])?["factors"] as? [[String: Any]], "\(card.text)")
            let similar = try #require(factors.first { $0["type"] as? String == "similar_users" }, "\(factors)")
            let payload = try #require(similar["payload"] as? [String: Any])
            #expect(payload["signal_movie_ids"] as? [Int] == [Int(finished)])
            #expect(payload["rated_movie_ids"] == nil)
            let position = try #require(try ReadModelFacts(client.dataDirectory, userId: Int64(user.id)).signals[finished])
            #expect(payload["evidence_event_ids"] as? [Int] == [Int(position)])
            #expect((similar["description"] as? String)?.hasSuffix(", which you finished, also watched this") == true, "\(similar)")
            let feed = try await client.send(.get, "/feed/recommendations?limit=50", token: user.token)
            let recommended = try #require(feed.json["recommendations"] as? [[String: Any]], "\(feed.status) \(feed.text)")
            #expect(!recommended.isEmpty && !recommended.contains { $0["movie_id"] as? Int == Int(finished) })
        }
    }

    @Test func aNewcomerGetsPopularFilmsAndIsToldWhy() async throws {
        try await withTasteServer { client in
            let token = try await client.account("someone-new").token
            let feed = try await client.send(.get, "/feed/recommendations?limit=3", token: token)
            let items = try #require(feed.json["recommendations"] as? [[String: Any]])
            #expect(items.count == 3)
            for item in items {
                let explanation = try #require(item["explanation"] as? [String: Any])
                #expect(explanation["primary_reason"] as? String == "popular")
                #expect(explanation["confidence"] as? Double == 0)
                let factor = try #require((explanation["factors"] as? [[String: Any]])?.first)
                #expect((factor["description"] as? String)?.contains("while we learn your taste") == true)
            }
        }
    }

    @Test func theExplanationCardAndTheMovieCarryTheSameScores() async throws {
        try await withTasteServer { client in
            let token = try await client.devLogin("movielens-3")
            let top = try #require((try await client.send(.get, "/feed/recommendations?limit=1", token: token).json["recommendations"] as? [[String: Any]])?.first)
            let movieId = try #require(top["movie_id"] as? Int)
            let card = try await client.send(.get, "/movies/\(movieId)/explanation", token: token)
            #expect(card.status == .ok, "\(card.text)")
            #expect(card.json["movie_id"] as? Int == movieId)
            #expect(card.json["ai_score"] as? Int == top["ai_score"] as? Int)
            let signals = try #require(card.json["social_signals"] as? [String: Any])
            for key in ["friend_ratings_count", "friend_ratings_avg", "friend_watch_count", "mutual_friends_watched"] {
                #expect(signals.keys.contains(key), "missing \(key)")
            }
            #expect(signals["friend_ratings_count"] as? Int == (top["friend_ratings"] as? [String: Any])?["count"] as? Int)
            let movie = try await client.send(.get, "/movies/\(movieId)", token: token)
            #expect(movie.json["ai_score"] as? Int == top["ai_score"] as? Int)
            #expect(movie.json["social_score"] as? Int == top["social_score"] as? Int)
            #expect(try await client.send(.get, "/movies/99999/explanation", token: token).errorCode == "MOVIE_NOT_FOUND")
        }
    }

    private func unratedFilm(of user: Int, in client: LiveClient) async throws -> Int {
        let facts = try ReadModelFacts(client.dataDirectory, userId: Int64(user))
        return try #require((1...24).first { facts.ratings[Int64($0)] == nil && !facts.completed.contains(Int64($0)) })
    }
}

/// The read models as a test reads them, straight from the server's SQLite file.
struct ReadModelFacts {
    var ratings: [Int64: (rating: Double, position: Int64)] = [:]
    var completed: Set<Int64> = []
    /// Films finished or saved to the watchlist and not rated, with the position of that event.
    var signals: [Int64: Int64] = [:]
    var friends: Set<Int64> = []
    /// Film → friend → position, for friends who gave it 4 stars or more (as shown).
    var friendsRatedHighly: [Int64: [Int64: Int64]] = [:]
    var friendRatings: [Int64: [Int64: Double]] = [:]
    /// Film → friend → position of their recommendation to the user.
    var recommendedBy: [Int64: [Int64: Int64]] = [:]
    var ratingCounts: [Int64: Int] = [:]
    var likedByGenre: [String: Int] = [:]
    var genres: [Int64: [String]] = [:]
    /// Trained again here from every film rated or finished, as the server trains it (deterministic,
    /// bit for bit).
    var model: ItemSimilarityModel

    init(_ dataDirectory: URL, userId: Int64) throws {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: ReadModelFiles(directory: dataDirectory.appendingPathComponent("read")).currentPath, configuration: configuration)
        let everyRating = try queue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT userId, movieId, position FROM userRating
                UNION ALL SELECT userId, movieId, position FROM watchStatus WHERE status = 'completed' ORDER BY position
                """)
                .map { (userId: $0["userId"] as Int64, movieId: $0["movieId"] as Int64) }
        }
        model = try ItemSimilarityModel.train(everyRating, parameters: tasteModelParameters)
        try queue.read { db in
            for row in try Row.fetchAll(db, sql: "SELECT movieId, rating, position FROM userRating WHERE userId = ?", arguments: [userId]) {
                ratings[row["movieId"]] = (row["rating"], row["position"])
            }
            for row in try Row.fetchAll(db, sql: "SELECT movieId, position FROM watchlistEntry WHERE userId = ?", arguments: [userId]) {
                signals[row["movieId"]] = row["position"]
            }
            for row in try Row.fetchAll(db, sql: "SELECT movieId, position FROM watchStatus WHERE userId = ? AND status = 'completed'", arguments: [userId]) {
                completed.insert(row["movieId"])
                signals[row["movieId"]] = row["position"]
            }
            signals = signals.filter { ratings[$0.key] == nil }
            friends = Set(try Int64.fetchAll(db, sql: "SELECT friendId FROM friendship WHERE userId = ?", arguments: [userId]))
            for row in try Row.fetchAll(db, sql: "SELECT userId, movieId, rating, position FROM userRating") where friends.contains(row["userId"]) {
                let rating: Double = row["rating"]
                friendRatings[row["movieId"], default: [:]][row["userId"]] = rating
                if rating >= 3.5 { friendsRatedHighly[row["movieId"], default: [:]][row["userId"]] = row["position"] }
            }
            for row in try Row.fetchAll(db, sql: "SELECT fromUserId, movieId, position FROM movieRecommendation WHERE toUserId = ?", arguments: [userId])
            where friends.contains(row["fromUserId"]) {
                recommendedBy[row["movieId"], default: [:]][row["fromUserId"]] = row["position"]
            }
            for row in try Row.fetchAll(db, sql: "SELECT movieId, ratingCount FROM movieStats") { ratingCounts[row["movieId"]] = row["ratingCount"] }
            for row in try Row.fetchAll(db, sql: "SELECT genre, likedCount FROM userGenre WHERE userId = ? AND likedCount > 0", arguments: [userId]) {
                likedByGenre[row["genre"]] = row["likedCount"]
            }
            for row in try Row.fetchAll(db, sql: "SELECT movieId, genres FROM movie") {
                genres[row["movieId"]] = try JSONDecoder().decode([String].self, from: Data((row["genres"] as String).utf8))
            }
        }
    }

    /// The personal term's two net sums for a film, recomputed: each film the user rated adds its
    /// item–item weight times f + (1 − f)·d over the largest such sum among the candidates, its
    /// sequence weight times q over the largest sum of those, and times r·d over the largest such sum
    /// (d = 0.5^(k / h), k: ratings recorded after it), times a when they did not like it; each film
    /// finished or saved without a rating counts s, with d = 1, among the others.
    func personalSums(_ movieId: Int64) -> (liked: Double, others: Double) {
        let candidates = model.movieIds.filter { ratings[$0] == nil && !completed.contains($0) }.map(parts)
        func scale(_ part: Int, _ share: Double) -> Double {
            let largest = candidates.map { $0[part].liked + $0[part].others }.max() ?? 0
            return largest > 0 ? share / largest : 0
        }
        let scales = [scale(0, 1), scale(1, Scorer.defaultSequenceWeight), scale(2, Scorer.defaultRecentSequenceWeight)]
        let own = zip(parts(movieId), scales)
        return (own.reduce(0) { $0 + $1.0.liked * $1.1 }, own.reduce(0) { $0 + $1.0.others * $1.1 })
    }

    /// What the liked films and the others add to a film, unscaled: through item–item weights, through
    /// sequence weights, and through sequence weights times d.
    private func parts(_ movieId: Int64) -> [(liked: Double, others: Double)] {
        var parts = [(liked: Double, others: Double)](repeating: (0, 0), count: 3)
        func add(_ film: Int64, share: Double, recency d: Double, liked: Bool) {
            let floor = Scorer.defaultRecencyFloor, next = model.sequenceWeight(from: film, to: movieId)
            for (part, value) in [model.weight(from: film, to: movieId) * (floor + (1 - floor) * d), next, next * d].enumerated() {
                if liked { parts[part].liked += value * share } else { parts[part].others += value * share }
            }
        }
        let newestFirst = ratings.sorted { ($0.value.position, $1.key) > ($1.value.position, $0.key) }.map(\.key)
        for (k, film) in newestFirst.enumerated() {
            let liked = (ratings[film]?.rating ?? 0) >= 4
            let d = Scorer.defaultRecencyHalfLife.map { pow(0.5, Double(k) / $0) } ?? 1
            add(film, share: liked ? 1 : Scorer.defaultOtherRatingsWeight, recency: d, liked: liked)
        }
        for film in signals.keys { add(film, share: Scorer.defaultSignalWeight, recency: 1, liked: false) }
        return parts
    }

    func check(_ item: [String: Any]) throws {
        let movieId = Int64(try #require(item["movie_id"] as? Int))
        #expect(ratings[movieId] == nil, "film \(movieId) is rated already")
        #expect(!completed.contains(movieId))
        let explanation = try #require(item["explanation"] as? [String: Any])
        let factors = try #require(explanation["factors"] as? [[String: Any]])
        try checkPersonalShares(movieId, factors, personalised: (explanation["confidence"] as? Double ?? 0) > 0)
        var friendCount = 0
        for factor in factors {
            let payload = factor["payload"] as? [String: Any] ?? [:]
            let value = try #require(factor["value"] as? Int)
            let evidence = Set((payload["evidence_event_ids"] as? [Int] ?? []).map(Int64.init))
            switch factor["type"] as? String {
            case "because_you_rated":
                let seeds = try #require(payload["seed_movie_ids"] as? [Int]).map(Int64.init)
                #expect(!seeds.isEmpty && value >= seeds.count)
                for seed in seeds { #expect((ratings[seed]?.rating ?? 0) >= 4, "seed \(seed) is not a film the user liked") }
                let likedPositions = Set(ratings.values.filter { $0.rating >= 4 }.map(\.position))
                #expect(evidence.isSubset(of: likedPositions) && !evidence.isEmpty)
                #expect(value <= ratings.values.filter { $0.rating >= 4 }.count)
            case "similar_users":
                let rated = (payload["rated_movie_ids"] as? [Int] ?? []).map(Int64.init)
                let marked = (payload["signal_movie_ids"] as? [Int] ?? []).map(Int64.init)
                #expect(!(rated + marked).isEmpty && value >= rated.count + marked.count)
                for film in rated { #expect((ratings[film]?.rating ?? 5) < 4, "film \(film) is not one the user rated without liking it") }
                for film in marked { #expect(signals[film] != nil, "film \(film) is not one the user finished or saved without rating it") }
                let otherPositions = Set(ratings.values.filter { $0.rating < 4 }.map(\.position)).union(signals.values)
                #expect(evidence.isSubset(of: otherPositions) && !evidence.isEmpty)
            case "genre_match":
                let mostLiked = Double(likedByGenre.values.max() ?? 0)
                let filmGenres = genres[movieId] ?? []
                let match = filmGenres.reduce(0.0) { $0 + Double(likedByGenre[$1] ?? 0) / mostLiked } / Double(filmGenres.count)
                #expect(value == Int((match * 100).rounded()))
                #expect(Set(payload["genres"] as? [String] ?? []) == Set(filmGenres.filter { (likedByGenre[$0] ?? 0) > 0 }))
            case "popular":
                #expect(value == ratingCounts[movieId])
            case "friend_activity":
                let expected = Set((friendsRatedHighly[movieId] ?? [:]).keys).union((recommendedBy[movieId] ?? [:]).keys)
                let named = try #require(payload["friend_user_ids"] as? [Int]).map(Int64.init)
                #expect(Set(named) == expected && named.count == expected.count)
                #expect(value == expected.count)
                let positions = Set((friendsRatedHighly[movieId] ?? [:]).values).union((recommendedBy[movieId] ?? [:]).values)
                #expect(evidence.isSubset(of: positions) && !evidence.isEmpty)
                friendCount = value
            default:
                Issue.record("unexpected factor \(factor)")
            }
        }
        let expectedFriends = Set((friendsRatedHighly[movieId] ?? [:]).keys).union((recommendedBy[movieId] ?? [:]).keys)
        #expect(friendCount == expectedFriends.count, "film \(movieId): friends' signals \(expectedFriends) not all cited")
        #expect(item["social_score"] as? Int == Int((min(1, Double(expectedFriends.count) / 3) * 100).rounded()))
        let friendRatings = try #require(item["friend_ratings"] as? [String: Any])
        let rated = self.friendRatings[movieId] ?? [:]
        #expect(friendRatings["count"] as? Int == rated.count)
        let listed = (friendRatings["friends"] as? [[String: Any]] ?? []).compactMap { $0["user_id"] as? Int }.map(Int64.init)
        #expect(Set(listed) == Set(rated.keys))
    }

    /// because_you_rated and similar_users against the two sums: present exactly when their sum is
    /// above zero (a sum at or below zero netted into the other), and in the ratio of the sums. The
    /// server adds the same terms in another order, so a sum within rounding of zero may fall on
    /// either side of it: what depends on that sign alone is not judged.
    private func checkPersonalShares(_ movieId: Int64, _ factors: [[String: Any]], personalised: Bool) throws {
        func weight(_ type: String) -> Double? { factors.first { $0["type"] as? String == type }?["weight"] as? Double }
        func clear(_ sum: Double) -> Bool { abs(sum) > 1e-9 }
        let (liked, others) = personalSums(movieId)
        let because = weight("because_you_rated"), similar = weight("similar_users")
        guard personalised, model.covers(movieId), liked + others > 0 || !clear(liked + others) else {
            #expect(because == nil && similar == nil, "film \(movieId): no personal sum above zero, yet a personal factor")
            return
        }
        guard clear(liked + others) else { return }
        if clear(liked) { #expect((because != nil) == (liked > 0), "film \(movieId): sums \(liked), \(others)") }
        if clear(liked), liked <= 0 {
            #expect(similar != nil, "film \(movieId): sums \(liked), \(others)")
        } else if clear(liked), clear(others) {
            #expect((similar != nil) == (others > 0), "film \(movieId): sums \(liked), \(others)")
        }
        if let because, let similar, liked > 0, others > 0 {
            #expect(abs(because / (because + similar) - liked / (liked + others)) < 0.002, "film \(movieId): \(because), \(similar) against \(liked), \(others)")
        }
    }
}
