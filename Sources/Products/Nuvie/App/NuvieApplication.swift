import AppleSignIn
import ReadModels
import NuvieAPI
import NuvieCommands
import NuvieDomain
import EventLog
import Foundation
import Hummingbird
import Logging
import NuvieProjections
import NuvieRecommendations
import ProductHosting

/// Opens the log and the read database, imports the demo into an empty log in demo mode (or finishes
/// an import that stopped part-way), and returns the server with the projection runner as a
/// service. Nothing here bootstraps logging or metrics: that is the executable's job, done once.
public func buildNuvieApplication(configuration: NuvieConfiguration, logger: Logger = Logger(label: "nuvie")) async throws -> some ApplicationProtocol {
    let storage = try await Storage(configuration: configuration, logger: logger)
    do {
        // Secrets are checked before the demo import and the first training, not minutes after.
        _ = try configuration.resolvedJWTSecret()
        _ = try configuration.operatorToken(NuvieProduct.self)
        _ = try configuration.resolvedInternalToken()
        let demo = DemoImport(directory: DataDirectory(configuration.dataDirectory))
        let importing = configuration.demoMode && demo.isDue(logHead: storage.log.headPosition)
        if importing, let dataset = configuration.demoDataset {
            try await demo.run(dataset, into: storage.store, logger: logger)
        }
        let runner = try storage.stores.runner(logger: logger)
        if importing {
            // A fresh demo answers its first requests from complete read models; a production server
            // with a backlog serves at once and reports `catching_up` in /health instead.
            logger.info("folding the demo into the read models before serving")
            try runner.catchUp()
            if configuration.demoDataset != nil { try demo.record(.finished) }
        }
        let recommender = Recommender(
            inputs: RecommendationInputQueries(database: storage.readDatabase), readModels: ReadModelRevision(runner: runner), parameters: configuration.modelParameters,
            ttlSeconds: configuration.recommendationTTLSeconds, logger: logger
        )
        // The first model is trained before serving, from whatever the read models hold now.
        let training = ModelTrainingService(recommender: recommender, interval: configuration.modelRetrainInterval, logger: logger)
        training.trainIfRatingsChanged()
        let replays = ReplayCoordinator(runner: runner)
        let router = try await nuvieRouter(
            configuration: configuration, storage: storage, runner: runner, replays: replays, recommender: recommender, logger: logger
        )
        let cache = storage.recommendationCache
        return storage.stores.server(
            router, configuration: configuration, connectRefusal: NuvieAPIError.connectRefusal, workers: [runner, training, replays],
            closingAlso: { try? cache.close() }, logger: logger
        )
    } catch {
        storage.close()
        throw error
    }
}

/// Nuvie's routes as served: the contract's, health (with the model's section), the AI contract's,
/// and the operator routes when a token is set.
func nuvieRouter(
    configuration: NuvieConfiguration, storage: Storage, runner: NuvieRunner, replays: ReplayCoordinator, recommender: Recommender, logger: Logger
) async throws -> Router<NuvieRequestContext> {
    let commands = CommandService(store: storage.store)
    let tokens = await TokenService(secret: try configuration.resolvedJWTSecret(), isLive: liveSessions(commands, readOnly: configuration.readOnly))
    let router = Router(context: NuvieRequestContext.self)
    let readYourWrites = ReadYourWrites(runner: runner, timeout: configuration.readYourWritesTimeout)
    let accounts = Accounts(
        erasure: UserErasure(stores: storage.stores, readYourWrites: readYourWrites), export: PersonalDataExport(stores: storage.stores),
        recommendationCache: storage.recommendationCache
    )
    router.addAPIMiddleware(tokens: tokens, rateLimit: configuration.rateLimit, readYourWrites: readYourWrites)
    let health = HealthController<NuvieRequestContext>(
        log: storage.log, runner: runner, registry: configuration.metricsRegistry,
        moreStorage: [{ storage.recommendationCache.storageFailure }],
        sections: { ["recommendationModel": ModelHealth(recommender.trained)] }
    )
    health.register(on: router)
    router.addAPIRoutes(APIDependencies(
        commands: commands,
        movies: MovieQueries(database: storage.readDatabase),
        reviews: ReviewQueries(database: storage.readDatabase),
        users: UserQueries(database: storage.readDatabase),
        social: SocialQueries(database: storage.readDatabase),
        search: SearchQueries(database: storage.readDatabase),
        activity: ActivityQueries(database: storage.readDatabase),
        tokens: tokens,
        apple: zip(configuration.appleKeySource, configuration.appleBundleId).map { AppleIdentityVerifier(source: $0, bundleId: $1) },
        devLoginEnabled: configuration.demoMode,
        readYourWrites: readYourWrites,
        readModelRevision: ReadModelRevision(runner: runner),
        accounts: accounts,
        recommendations: try recommendationDependencies(configuration, storage: storage, recommender: recommender, logger: logger)
    ))
    try storage.stores.addOperatorRoutes(
        to: router, configuration: configuration, refusal: NuvieAPIError(.unauthorized, code: "ADMIN_TOKEN_REQUIRED", message: "This endpoint needs the operator's X-Admin-Token"),
        replays: replays, health: health
    ) { try await accounts.erase($0, initiator: .operator, tokens: tokens) }
    return router
}

private func recommendationDependencies(
    _ configuration: NuvieConfiguration, storage: Storage, recommender: Recommender, logger: Logger
) throws -> RecommendationDependencies {
    let internalToken = try configuration.resolvedInternalToken()
    var engine: any RecommendationEngine = recommender
    if let url = configuration.aiServiceURL {
        guard let internalToken else { throw ConfigurationError.missingInternalToken }
        engine = FallbackRecommendationEngine(
            primary: RemoteRecommendationEngine(baseURL: url, internalToken: internalToken, timeout: configuration.aiServiceTimeout),
            fallback: recommender, logger: logger
        )
    }
    return RecommendationDependencies(
        engine: engine, local: recommender, inputs: RecommendationInputQueries(database: storage.readDatabase),
        cache: storage.recommendationCache, internalToken: internalToken
    )
}

/// Whether a token's session opens anything. A past state served read-only records no sessions:
/// there a token needs only a registered user.
private func liveSessions(_ commands: CommandService, readOnly: Bool) -> @Sendable (Int64, UUID) throws -> Bool {
    guard !readOnly else { return { userId, _ in try commands.userExists(userId) } }
    return { userId, sessionId in try commands.sessionIsLive(userId: userId, sessionId: sessionId) }
}

private func zip<A, B>(_ a: A?, _ b: B?) -> (A, B)? {
    guard let a, let b else { return nil }
    return (a, b)
}
