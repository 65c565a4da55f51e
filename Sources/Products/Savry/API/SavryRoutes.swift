import AppleSignIn
import HTTPServing
import Hummingbird
import ProductHosting
import ReadModels
import SavryCommands
import SavryProjections

/// What Savry's routes are built from; assembled by the App layer.
public struct SavryAPIDependencies: Sendable {
    public var commands: SavryCommandService
    public var recipes: RecipeQueries
    public var tokens: SavryTokens
    /// Verifies `identityToken`; without one, Sign in with Apple answers 400.
    public var apple: AppleIdentityVerifier?
    /// Opens `{"devUser": …}` sign-in (demo mode).
    public var devLoginEnabled: Bool
    public var readYourWrites: ReadYourWrites
    /// Account deletion and export.
    public var accounts: UserAccounts<SavryProduct>
    /// Per signed-in cook on the recipes and their account, per IP address on sign-in; nil turns it off.
    public var rateLimit: RateLimit?

    public init(
        commands: SavryCommandService, recipes: RecipeQueries, tokens: SavryTokens, apple: AppleIdentityVerifier?, devLoginEnabled: Bool,
        readYourWrites: ReadYourWrites, accounts: UserAccounts<SavryProduct>, rateLimit: RateLimit?
    ) {
        self.rateLimit = rateLimit
        self.accounts = accounts
        self.commands = commands
        self.recipes = recipes
        self.tokens = tokens
        self.apple = apple
        self.devLoginEnabled = devLoginEnabled
        self.readYourWrites = readYourWrites
    }
}

/// Savry's middleware and routes on `router`: request ids, request logs and metrics, the error shape
/// (`{"message": …}` for every error, unknown routes included), then `POST /api/app/auth` open,
/// `DELETE /api/app/auth` (sign out) behind the token it signs out of, and
/// `/api/app/recipes` and `/api/app/account` behind a bearer token (`SavryAuthMiddleware`,
/// `SavrySignedInContext`). Routes added
/// to `router` before this call get none of the middleware; those added after get all of it.
public func addSavryRoutes(to router: Router<SavryRequestContext>, dependencies d: SavryAPIDependencies) {
    router.addMiddleware {
        RequestObservationMiddleware()
        ContractErrorMiddleware<SavryRequestContext, SavryAPIError>()
        LogPositionMiddleware(readYourWrites: d.readYourWrites)
    }
    let app = router.group("/api/app")
    let signIn = app.group("/auth")
    let recipes = app.group("/recipes").add(middleware: SavryAuthMiddleware(tokens: d.tokens))
    let account = app.group("/account").add(middleware: SavryAuthMiddleware(tokens: d.tokens))
    if let limit = d.rateLimit {
        signIn.add(middleware: RateLimitMiddleware<SavryRequestContext, SavryAPIError>(limit, user: { $0.userId }, refusal: SavryAPIError.rateLimited))
        recipes.add(middleware: RateLimitMiddleware<SavryRequestContext, SavryAPIError>(limit, user: { $0.userId }, refusal: SavryAPIError.rateLimited))
        account.add(middleware: RateLimitMiddleware<SavryRequestContext, SavryAPIError>(limit, user: { $0.userId }, refusal: SavryAPIError.rateLimited))
    }
    signIn.post(use: AuthController(commands: d.commands, tokens: d.tokens, apple: d.apple, devLoginEnabled: d.devLoginEnabled).signIn)
    app.group("/auth").add(middleware: SavryAuthMiddleware(tokens: d.tokens))
        .group(context: SavrySignedInContext.self)
        .delete(use: SignOutController(commands: d.commands, readYourWrites: d.readYourWrites).signOut)
    recipes
        .group(context: SavrySignedInContext.self)
        .addRoutes(RecipesController(commands: d.commands, recipes: d.recipes, readYourWrites: d.readYourWrites).endpoints)
    account
        .group(context: SavrySignedInContext.self)
        .addRoutes(AccountController(accounts: d.accounts, recipes: d.recipes).endpoints)
    OpenAPIDocumentController<SavryRequestContext>(document: PackageResources.openapi_json).register(on: router)
}
