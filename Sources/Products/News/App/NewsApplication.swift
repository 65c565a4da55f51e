import Foundation
import HTTPServing
import Hummingbird
import Logging
import NewsAPI
import NewsCommands
import NewsProjections
import ProductHosting
import ReadModels
import ServiceLifecycle

/// Opens the news product's stores over its own data directory, ingests the synthetic demo set in
/// demo mode, and returns the server over them.
public func buildNewsApplication(configuration: NewsConfiguration, logger: Logger = Logger(label: "news")) async throws -> some ApplicationProtocol {
    let stores = try await ProductStores<NewsProduct>.open(for: configuration, logger: logger)
    return try await stores.closedIfThrowing {
        let runner = try stores.runner(logger: logger)
        let commands = NewsCommandService(store: stores.store)
        try await stores.seedDemo("the synthetic demo articles", when: configuration, runner: runner, logger: logger) { try await NewsDemoSeed.run(into: commands) }
        return try await buildNewsApplication(configuration: configuration, stores: stores, runner: runner, commands: commands, logger: logger)
    }
}

/// The news server over opened stores, folded by `runner` (which the server runs with its replays),
/// with the feed poller as its own service. The live tests serve their own stores through
/// this (`lent`).
public func buildNewsApplication(
    configuration: NewsConfiguration, stores: ProductStores<NewsProduct>, runner: NewsRunner, commands: NewsCommandService, logger: Logger
) async throws -> some ApplicationProtocol {
    let router = try newsRouter(configuration: configuration, stores: stores, runner: runner, commands: commands)
    var workers: [any Service] = []
    // One node polls the feeds at a time; another takes over when it dies. A past state polls none,
    // nor does a node with no feeds to poll (it would take the lead only to give it up).
    if !configuration.readOnly, !configuration.feeds.isEmpty {
        workers.append(OneProcessJob("news-feed-poller", log: stores.log, job: FeedPoller(
            feeds: configuration.feeds, interval: configuration.feedInterval, commands: commands, logger: logger
        )))
    }
    return try await stores.server(router, configuration: configuration, errors: NewsAPIError.self, runner: runner, workers: workers, logger: logger)
}

/// The news routes as served: the contract's `/v1`, health, and the operator routes when a token is
/// set.
public func newsRouter(
    configuration: NewsConfiguration, stores: ProductStores<NewsProduct>, runner: NewsRunner, commands: NewsCommandService
) throws -> Router<NewsRequestContext> {
    let router = Router(context: NewsRequestContext.self)
    let readYourWrites = ReadYourWrites(runner: runner, timeout: configuration.readYourWritesTimeout)
    let accounts = UserAccounts<NewsProduct>(stores: stores, readYourWrites: readYourWrites)
    addNewsRoutes(to: router, dependencies: NewsAPIDependencies(
        commands: commands, queries: NewsQueries(database: stores.readDatabase), readYourWrites: readYourWrites,
        readModelRevision: ReadModelRevision(runner: runner), requestsPerMinute: configuration.requestsPerMinute,
        defaultUser: configuration.serving.demoMode ? NewsRequestContext.defaultUser : nil
    ))
    try stores.addEngineRoutes(
        to: router, configuration: configuration, runner: runner,
        refusal: NewsAPIError(.forbidden, "Invalid API key", details: "This endpoint needs the operator's X-Admin-Token")
    ) { try await accounts.erase($0, initiator: .operator) }
    return router
}
