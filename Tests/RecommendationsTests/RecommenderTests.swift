import ReadModels
import NuvieCommands
import NuvieDomain
import EventLog
import EventSourcing
import Foundation
import Logging
import NuvieProjections
import NuvieRecommendations
import TestSupport
import Testing

/// The recommender over real read models: `movielens-taste` imported into a real LMDB log and folded
/// into a real SQLite read database.
final class ImportedTaste: Sendable {
    let directory: TemporaryDirectory
    let log: EventLog
    let store: NuvieStore
    let database: ReadDatabase
    let runner: NuvieRunner
    let recommender: Recommender
    static let parameters = ItemSimilarityModel.Parameters(minimumRatings: 2, lambda: 10)

    init() async throws {
        directory = try TemporaryDirectory()
        log = try EventLog(configuration: .init(directory: directory.url.appendingPathComponent("log"), initialMapSize: 8 << 20))
        store = NuvieStore(log: log, personalData: try testKeyStore(in: directory))
        _ = try await MovieLensImporter(store: store).importDirectory(replayFixtures.appendingPathComponent("movielens-taste"))
        (database, runner) = try Self.fold(store, into: directory.url.appendingPathComponent("read/read.sqlite"))
        recommender = Recommender(inputs: RecommendationInputQueries(database: database), parameters: Self.parameters, logger: Logger(label: "test"))
    }

    static func fold(_ store: NuvieStore, into file: URL) throws -> (ReadDatabase, NuvieRunner) {
        let database = try ReadDatabase(path: file.path)
        let runner = try ProjectionRunner(log: store.log, personalData: store.personalData, database: database, logger: Logger(label: "test"))
        _ = try runner.catchUp()
        return (database, runner)
    }

    deinit {
        try? database.close()
        log.close()
    }
}

@Suite(.timeLimit(.minutes(3))) struct RecommenderTests {
    @Test func aModelIsNotReadyUntilTrained() async throws {
        let taste = try await ImportedTaste()
        await #expect(throws: RecommendationError.modelNotReady) {
            try await taste.recommender.recommend(RecommendQuery(requestId: "r", userId: 1, limit: 5))
        }
        try taste.recommender.train()
        await #expect(throws: RecommendationError.userNotFound(9999)) {
            try await taste.recommender.recommend(RecommendQuery(requestId: "r", userId: 9999, limit: 5))
        }
    }

    @Test func aRebuildFromTheLogReproducesTheInputsAndTheRecommendationsExactly() async throws {
        let taste = try await ImportedTaste()
        let live = try taste.recommender.train()
        let (rebuilt, _) = try ImportedTaste.fold(taste.store, into: taste.directory.url.appendingPathComponent("rebuilt/read.sqlite"))
        defer { try? rebuilt.close() }
        let again = Recommender(inputs: RecommendationInputQueries(database: rebuilt), parameters: ImportedTaste.parameters, logger: Logger(label: "test"))
        let replayed = try again.train()
        #expect(replayed.model == live.model)
        #expect(replayed.position == live.position)
        for userId in Int64(1)...36 {
            let query = RecommendQuery(requestId: "r", userId: userId, limit: 10)
            let a = try await taste.recommender.recommend(query).items, b = try await again.recommend(query).items
            #expect(a == b)
        }
    }

    /// An upgrade that changes a projection's version folds it again from the start, while the first
    /// model is trained from the read models as they are: finished films missing. The model is
    /// retrained once they are back, though no pair is newer than the model.
    @Test func aModelTrainedWhileAProjectionIsFoldedAgainIsRetrainedWhenItIsWhole() async throws {
        let taste = try await ImportedTaste()
        let commands = NuvieCommandService(store: taste.store)
        _ = try await commands.recordWatch(.completed, progressPercent: 100, userId: 1, movieId: 12)
        _ = try await commands.rate(RateMovie(userId: 2, movieId: 1, rating: 4, comment: nil, isReview: false))
        _ = try taste.runner.catchUp()
        let whole = try taste.recommender.train()

        let file = taste.directory.url.appendingPathComponent("upgraded/read.sqlite")
        let (folded, _) = try ImportedTaste.fold(taste.store, into: file)
        try await folded.pool.write { try $0.execute(sql: "UPDATE projectionCheckpoint SET version = version + 1 WHERE name = 'watch'") }
        try folded.close()
        let upgraded = try ReadDatabase(path: file.path)
        defer { try? upgraded.close() }
        let restarted = Recommender(inputs: RecommendationInputQueries(database: upgraded), parameters: ImportedTaste.parameters, logger: Logger(label: "test"))
        let training = ModelTrainingService(recommender: restarted, interval: .seconds(3600), logger: Logger(label: "test"))
        training.trainIfInteractionsChanged()
        #expect(restarted.trained?.model != whole.model, "the watch projection was not folded again")
        let runner = try ProjectionRunner(log: taste.store.log, personalData: taste.store.personalData, database: upgraded, logger: Logger(label: "test"))
        _ = try runner.catchUp()
        training.trainIfInteractionsChanged()
        #expect(restarted.trained?.model == whole.model && restarted.trained?.generation == 2)
    }

    @Test func aNewRatingOrFinishedFilmChangesTheModelAndTheNextFeedWithoutARestart() async throws {
        let taste = try await ImportedTaste()
        let training = ModelTrainingService(recommender: taste.recommender, interval: .seconds(3600), logger: Logger(label: "test"))
        training.trainIfInteractionsChanged()
        let before = try #require(taste.recommender.trained)
        let query = RecommendQuery(requestId: "r", userId: 1, limit: 5)
        let top = try #require(try await taste.recommender.recommend(query).items.first)

        let (_, result) = try await NuvieCommandService(store: taste.store).rate(RateMovie(userId: 1, movieId: top.movieId, rating: 5, comment: nil, isReview: false))
        _ = try taste.runner.catchUp()
        training.trainIfInteractionsChanged()

        let after = try #require(taste.recommender.trained)
        #expect(after.position == result.position)
        #expect(after.model != before.model)
        let next = try await taste.recommender.recommend(query).items
        #expect(!next.contains { $0.movieId == top.movieId })
        let seeds = next.flatMap(\.explanation.factors).filter { $0.type == .becauseYouRated }.flatMap(\.seedMovieIds)
        #expect(seeds.contains(top.movieId))

        // A film finished without a rating is a film watched: the model learns it too.
        let unrated = try #require(next.first { $0.movieId != top.movieId }?.movieId)
        let watched = try await NuvieCommandService(store: taste.store).recordWatch(.completed, progressPercent: 100, userId: 1, movieId: unrated)
        _ = try taste.runner.catchUp()
        training.trainIfInteractionsChanged()
        let afterWatching = try #require(taste.recommender.trained)
        #expect(afterWatching.position == watched.position)
        #expect(afterWatching.model != after.model)
        #expect(!(try await taste.recommender.recommend(query).items.contains { $0.movieId == unrated }))

        // An erasure takes the user's pairs away with no newer rating or finish: it retrains too.
        _ = try await taste.store.append([.userErased(UserErased(userId: 2, initiator: .user))], to: NuvieStreams.user(2), eventId: UUID())
        _ = try taste.runner.catchUp()
        training.trainIfInteractionsChanged()
        let afterErasure = try #require(taste.recommender.trained)
        #expect(afterErasure.generation == afterWatching.generation + 1 && afterErasure.position == afterWatching.position)
        #expect(afterErasure.model != afterWatching.model)
        training.trainIfInteractionsChanged()
        #expect(taste.recommender.trained?.generation == afterErasure.generation, "nothing new: no training")
    }
}
