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

/// Opens Savry's stores over its own data directory, seeds the demo cooks in demo mode, and returns
/// the server with the projection runner as a service. Logging and metrics are bootstrapped by the
/// executable, once.
public func buildSavryApplication(configuration: SavryConfiguration, logger: Logger = Logger(label: "savry")) async throws -> some ApplicationProtocol {
    let stores = try ProductStores<SavryProduct>(
        directory: DataDirectory(configuration.dataDirectory), initialLogMapSize: configuration.initialLogMapSize,
        readOnly: configuration.readOnly
    )
    do {
        let runner = try stores.runner(logger: logger)
        let commands = SavryCommandService(log: stores.log)
        if configuration.demoMode && !configuration.readOnly {
            let recorded = try await SavryDemoSeed.run(into: commands)
            if recorded > 0 { logger.info("seeded the demo cooks' recipes", metadata: ["events": "\(recorded)"]) }
            try runner.catchUp()
        }
        let replays = ReplayCoordinator(runner: runner)
        let router = try await savryRouter(configuration: configuration, stores: stores, runner: runner, replays: replays, commands: commands)
        return Application(
            router: router,
            server: .http1(configuration: configuration.connections.channelConfiguration(
                connectRefusal: SavryAPIError.connectRefusal, logger: logger
            )),
            configuration: configuration.connections.serverConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: "savry", logger: logger
            ),
            services: [StoresAndTheirWorkers(workers: [runner, replays], close: stores.close)],
            logger: logger
        )
    } catch {
        stores.close()
        throw error
    }
}

private func savryRouter(
    configuration: SavryConfiguration, stores: ProductStores<SavryProduct>, runner: SavryRunner, replays: ReplayCoordinator,
    commands: SavryCommandService
) async throws -> Router<SavryRequestContext> {
    let directory = DataDirectory(configuration.dataDirectory)
    guard let secret = try GeneratedSecret.resolve(
        configuration.jwtSecret, named: "SAVRY_JWT_SECRET", demoMode: configuration.demoMode, file: directory.root.appendingPathComponent("jwt-secret")
    ) else { throw SavryConfigurationError.missingJWTSecret }
    let adminToken = try GeneratedSecret.resolve(
        configuration.adminToken, named: "SAVRY_ADMIN_TOKEN", demoMode: configuration.demoMode, file: directory.root.appendingPathComponent("admin-token")
    )
    let router = Router(context: SavryRequestContext.self)
    addSavryRoutes(to: router, dependencies: SavryAPIDependencies(
        commands: commands,
        recipes: RecipeQueries(database: stores.readDatabase),
        tokens: await SavryTokens(secret: secret, isRegistered: commands.userExists),
        apple: configuration.appleBundleId.flatMap { bundleId in
            configuration.appleKeySource.map { AppleIdentityVerifier(source: $0, bundleId: bundleId) }
        },
        devLoginEnabled: configuration.demoMode,
        readYourWrites: ReadYourWrites(runner: runner, timeout: configuration.readYourWritesTimeout),
        rateLimit: configuration.rateLimit
    ))
    HealthController<SavryRequestContext>(log: stores.log, runner: runner, registry: configuration.metricsRegistry).register(on: router)
    if let adminToken { addSavryOperatorRoutes(to: router, adminToken: adminToken, audit: AuditTrail(log: stores.log), replays: replays) }
    return router
}

public enum SavryConfigurationError: Error, CustomStringConvertible {
    case missingJWTSecret

    public var description: String {
        switch self {
        case .missingJWTSecret: "No JWT secret: set SAVRY_JWT_SECRET_FILE (or SAVRY_JWT_SECRET), or run in demo mode"
        }
    }
}
