import AsyncHTTPClient
import ChatAPI
import ChatAssistant
import ChatCommands
import ChatProjections
import Foundation
import HTTPServing
import Hummingbird
import Logging
import PersonalData
import ProductHosting
import ReadModels

/// Opens the chat product's stores over its own data directory (the log, the key store, the read
/// models, the sealed uploads; erasures reconciled first), seeds the demo accounts in demo mode, and
/// returns the server with the projection runner as a service. Replies come from the configured
/// OpenAI-compatible API, or the offline responder when none is configured.
public func buildChatApplication(configuration: ChatConfiguration, logger: Logger = Logger(label: "chat")) async throws -> some ApplicationProtocol {
    let stores = try await ProductStores<ChatProduct>.open(for: configuration, logger: logger)
    return try await stores.closedIfThrowing {
        let runner = try stores.runner(logger: logger)
        let commands = try ChatCommandService(store: stores.store, passwords: DjangoPassword(iterations: configuration.passwordIterations))
        try await stores.seedDemo("the demo accounts", when: configuration, runner: runner, logger: logger) { try await ChatDemoSeed.run(into: commands) }
        let assistant: any Assistant = configuration.assistant.map { OpenAICompatibleAssistant(settings: $0) } ?? OfflineAssistant()
        logger.info("assistant replies", metadata: ["provider": "\(assistant.provider)", "model": "\(assistant.model)"])
        return try await buildChatApplication(configuration: configuration, stores: stores, runner: runner, commands: commands, assistant: assistant, logger: logger)
    }
}

/// Chat's server over opened stores, folded by `runner` (which the server runs with its replays), its
/// replies from `assistant`. The live tests serve their own stores through this (`lent`), with
/// assistants of their own.
public func buildChatApplication(
    configuration: ChatConfiguration, stores: ProductStores<ChatProduct>, runner: ChatRunner, commands: ChatCommandService, assistant: any Assistant,
    logger: Logger
) async throws -> some ApplicationProtocol {
    let router = try chatRouter(configuration: configuration, stores: stores, runner: runner, commands: commands, assistant: assistant, logger: logger)
    return try await stores.server(router, configuration: configuration, errors: ChatAPIError.self, runner: runner, logger: logger)
}

/// Chat's routes as served: the contract's, health, and the operator routes when a token is set.
public func chatRouter(
    configuration: ChatConfiguration, stores: ProductStores<ChatProduct>, runner: ChatRunner, commands: ChatCommandService, assistant: any Assistant, logger: Logger
) throws -> Router<ChatRequestContext> {
    let files = stores.uploadedFiles
    let readYourWrites = ReadYourWrites(runner: runner, timeout: configuration.readYourWritesTimeout)
    let accounts = UserAccounts<ChatProduct>(stores: stores, readYourWrites: readYourWrites)
    let router = Router(context: ChatRequestContext.self)
    addChatRoutes(to: router, dependencies: ChatAPIDependencies(
        conversations: Conversations(
            commands: commands, assistant: assistant, prompts: configuration.tonePrompts, budget: ConversationBudget(tokens: configuration.contextTokens),
            files: files, logger: logger
        ),
        queries: ChatQueries(database: stores.readDatabase), files: files, readYourWrites: readYourWrites,
        rateLimit: configuration.rateLimit, loginThrottle: configuration.loginThrottle, sharedAttempts: stores.log.sharedAttempts,
        loginDigestKey: stores.keys.derivedKey(for: "login-throttle"), accounts: accounts
    ))
    try stores.addEngineRoutes(
        to: router, configuration: configuration, runner: runner,
        refusal: ChatAPIError(.unauthorized, "not_authenticated", "This endpoint needs the operator's X-Admin-Token", detail: "X-Admin-Token"),
        moreStorage: [{ files.storageFailure }]
    ) { try await accounts.erase($0, initiator: .operator) }
    return router
}
