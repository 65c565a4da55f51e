import AppleSignIn
import EventLog
import Hummingbird
import Logging
import NuvieAPI
import NuvieCommands
import NuvieProjections
import NuvieRecommendations
import ProductHosting
import ReadModels

/// Opens the log, the read database and the recommendation cache beside them, imports the demo into
/// an empty log in demo mode (or finishes an import that stopped part-way), trains the first model,
/// and returns the server, which runs the projection runner, its replays and the retraining. Nothing
/// here bootstraps logging or metrics: that is the executable's job, done once.
public func buildNuvieApplication(configuration: NuvieConfiguration, logger: Logger = Logger(label: "nuvie")) async throws -> some ApplicationProtocol {
    if !configuration.readOnly {
        try StorageFullError.checkRoom(for: .recommendationCache, at: configuration.recommendationCachePath)
    }
    let stores = try await ProductStores<NuvieProduct>.open(for: configuration, logger: logger)
    return try await stores.closedIfThrowing {
        // Secrets are checked before the demo import and the first training, not minutes after.
        let secrets = try NuvieSecrets(configuration)
        let cache = try RecommendationFeedCache(path: configuration.recommendationCachePath)
        // Erased through another node: any list here may name the user (this node's own erasures
        // empty it in `Accounts.erase`). Not on the copier's thread: emptying waits for readers.
        stores.keys.onKeysDestroyed { destruction in
            guard destruction.copiedFromShared else { return }
            Task { try? await cache.forgetEveryone() }
        }
        do {
            let runner = try await DemoImport.runner(configuration: configuration, stores: stores, logger: logger)
            let recommender = Recommender(
                inputs: RecommendationInputQueries(database: stores.readDatabase), readModels: ReadModelRevision(runner: runner),
                parameters: configuration.modelParameters, scoring: configuration.recommender, ttlSeconds: configuration.recommendationTTLSeconds, logger: logger
            )
            // The first model is trained before serving, from whatever the read models hold now.
            let training = ModelTrainingService(recommender: recommender, interval: configuration.modelRetrainInterval, logger: logger)
            training.trainIfInteractionsChanged()
            let router = try await nuvieRouter(
                configuration: configuration, secrets: secrets, stores: stores, cache: cache, runner: runner, recommender: recommender, logger: logger
            )
            return try await stores.server(
                router, configuration: configuration, errors: NuvieAPIError.self, runner: runner, workers: [training],
                closingAlso: { try? cache.close() }, logger: logger
            )
        } catch {
            try? cache.close()
            throw error
        }
    }
}

/// Nuvie's routes as served: the contract's, health (with the model's section), the AI contract's,
/// and the operator routes when a token is set.
func nuvieRouter(
    configuration: NuvieConfiguration, secrets: NuvieSecrets, stores: ProductStores<NuvieProduct>, cache: RecommendationFeedCache,
    runner: NuvieRunner, recommender: Recommender, logger: Logger
) async throws -> Router<NuvieRequestContext> {
    let commands = NuvieCommandService(store: stores.store)
    let readYourWrites = ReadYourWrites(runner: runner, timeout: configuration.readYourWritesTimeout)
    let tokens = await NuvieTokens(secret: secrets.jwt, sessions: commands, readOnly: configuration.readOnly, readYourWrites: readYourWrites)
    let router = Router(context: NuvieRequestContext.self)
    let accounts = Accounts(UserAccounts(stores: stores, readYourWrites: readYourWrites), recommendationCache: cache)
    router.addAPIMiddleware(tokens: tokens, rateLimit: configuration.rateLimit, readYourWrites: readYourWrites)
    router.addAPIRoutes(NuvieAPIDependencies(
        commands: commands, readDatabase: stores.readDatabase, tokens: tokens,
        apple: AppleIdentityVerifier(bundleId: configuration.appleBundleId, source: configuration.appleKeySource),
        devLoginEnabled: configuration.demoMode, readYourWrites: readYourWrites, readModelRevision: ReadModelRevision(runner: runner),
        accounts: accounts,
        recommendations: RecommendationDependencies(
            local: recommender, aiService: configuration.aiServiceURL, timeout: configuration.aiServiceTimeout, internalToken: secrets.internalToken,
            cache: cache, logger: logger
        )
    ))
    try stores.addEngineRoutes(
        to: router, configuration: configuration, runner: runner,
        refusal: NuvieAPIError(.unauthorized, code: "ADMIN_TOKEN_REQUIRED", message: "This endpoint needs the operator's X-Admin-Token"),
        moreStorage: [{ cache.storageFailure }], sections: { ["recommendationModel": ModelHealth(recommender.trained)] }
    ) { try await accounts.erase($0, initiator: .operator, tokens: tokens) }
    return router
}
