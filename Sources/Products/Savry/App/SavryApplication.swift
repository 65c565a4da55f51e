import AppleSignIn
import Foundation
import HTTPServing
import Hummingbird
import Logging
import ProductHosting
import ReadModels
import SavryAPI
import SavryCommands
import SavryProjections

/// Opens Savry's stores over the configured data directory (the log, the key store that seals
/// personal fields, the read models; erasures reconciled first, except for a past state served
/// read-only), seeds the demo cooks in demo mode, and returns the server over them. Logging and
/// metrics are bootstrapped by the executable, once.
public func buildSavryApplication(configuration: SavryConfiguration, logger: Logger = Logger(label: "savry")) async throws -> some ApplicationProtocol {
    let stores = try await ProductStores<SavryProduct>.open(for: configuration, logger: logger)
    return try await stores.closedIfThrowing {
        let runner = try stores.runner(logger: logger)
        let commands = SavryCommandService(store: stores.store)
        try await stores.seedDemo("the demo cooks' recipes", when: configuration, runner: runner, logger: logger) { try await SavryDemoSeed.run(into: commands) }
        return try await buildSavryApplication(configuration: configuration, stores: stores, runner: runner, commands: commands, logger: logger)
    }
}

/// Savry's server over opened stores, folded by `runner`, which the server runs with its replays.
/// The live tests serve their own stores through this (`lent`).
public func buildSavryApplication(
    configuration: SavryConfiguration, stores: ProductStores<SavryProduct>, runner: SavryRunner, commands: SavryCommandService, logger: Logger
) async throws -> some ApplicationProtocol {
    let router = try await savryRouter(configuration: configuration, stores: stores, runner: runner, commands: commands)
    return try await stores.server(router, configuration: configuration, errors: SavryAPIError.self, runner: runner, logger: logger)
}

/// Savry's routes as served: the contract's, health, and the operator routes when a token is set.
public func savryRouter(
    configuration: SavryConfiguration, stores: ProductStores<SavryProduct>, runner: SavryRunner, commands: SavryCommandService
) async throws -> Router<SavryRequestContext> {
    let secret = try configuration.requiredSecret(configuration.jwtSecret, named: "SAVRY_JWT_SECRET", file: "jwt-secret")
    let router = Router(context: SavryRequestContext.self)
    let readYourWrites = ReadYourWrites(runner: runner, timeout: configuration.readYourWritesTimeout)
    let accounts = UserAccounts<SavryProduct>(stores: stores, readYourWrites: readYourWrites)
    addSavryRoutes(to: router, dependencies: SavryAPIDependencies(
        commands: commands,
        recipes: RecipeQueries(database: stores.readDatabase),
        tokens: await SavryTokens(
            secret: secret, users: commands, signedOut: SignedOutTokens(database: stores.readDatabase), readYourWrites: readYourWrites
        ),
        apple: AppleIdentityVerifier(bundleId: configuration.appleBundleId, source: configuration.appleKeySource),
        devLoginEnabled: configuration.demoMode,
        readYourWrites: readYourWrites,
        accounts: accounts,
        rateLimit: configuration.rateLimit
    ))
    try stores.addEngineRoutes(
        to: router, configuration: configuration, runner: runner,
        refusal: SavryAPIError(.unauthorized, "This endpoint needs the operator's X-Admin-Token")
    ) { try await accounts.erase($0, initiator: .operator) }
    return router
}
