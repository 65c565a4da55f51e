import AppleSignIn
import Foundation
import HTTPServing
import ReadModels
import NuvieCommands
import Hummingbird
import Logging
import NuvieProjections
import NuvieRecommendations
import ProductHosting

/// What the API's controllers are built from; assembled by the App.
public struct NuvieAPIDependencies: Sendable {
    public var commands: NuvieCommandService
    public var movies: MovieQueries
    public var reviews: ReviewQueries
    public var users: UserQueries
    public var social: SocialQueries
    public var search: SearchQueries
    public var activity: ActivityQueries
    public var tokens: NuvieTokens
    public var apple: AppleIdentityVerifier?
    public var devLoginEnabled: Bool
    public var readYourWrites: ReadYourWrites
    public var readModelRevision: ReadModelRevision
    public var accounts: Accounts
    public var recommendations: RecommendationDependencies

    /// Each query type reads `readDatabase`.
    public init(
        commands: NuvieCommandService, readDatabase: ReadDatabase, tokens: NuvieTokens, apple: AppleIdentityVerifier?, devLoginEnabled: Bool,
        readYourWrites: ReadYourWrites, readModelRevision: ReadModelRevision, accounts: Accounts, recommendations: RecommendationDependencies
    ) {
        self.commands = commands
        movies = MovieQueries(database: readDatabase)
        reviews = ReviewQueries(database: readDatabase)
        users = UserQueries(database: readDatabase)
        social = SocialQueries(database: readDatabase)
        search = SearchQueries(database: readDatabase)
        activity = ActivityQueries(database: readDatabase)
        self.tokens = tokens
        self.apple = apple
        self.devLoginEnabled = devLoginEnabled
        self.readYourWrites = readYourWrites
        self.readModelRevision = readModelRevision
        self.accounts = accounts
        self.recommendations = recommendations
    }
}

/// What the recommendation endpoints need: the engine the backend asks (the in-process model, or an
/// external AI service falling back to it), the in-process model itself (served at `/ai/…`), the
/// inputs and the feed cache.
public struct RecommendationDependencies: Sendable {
    public var engine: any RecommendationEngine
    public var local: any RecommendationEngine
    public var inputs: RecommendationInputQueries
    public var cache: RecommendationFeedCache
    /// Opens `/ai/…` (header `X-Internal-Token`); without one those routes do not exist.
    public var internalToken: String?

    public init(engine: any RecommendationEngine, local: any RecommendationEngine, inputs: RecommendationInputQueries, cache: RecommendationFeedCache, internalToken: String?) {
        self.engine = engine
        self.local = local
        self.inputs = inputs
        self.cache = cache
        self.internalToken = internalToken
    }

    /// The model in this process, asked through the external AI service at `aiService` first when
    /// there is one (with the internal token that signs the calls).
    public init(local: Recommender, aiService: URL?, timeout: Duration, internalToken: String?, cache: RecommendationFeedCache, logger: Logger) {
        var engine: any RecommendationEngine = local
        if let aiService, let internalToken {
            engine = FallbackRecommendationEngine(
                primary: RemoteRecommendationEngine(baseURL: aiService, internalToken: internalToken, timeout: timeout), fallback: local, logger: logger
            )
        }
        self.init(engine: engine, local: local, inputs: local.inputs, cache: cache, internalToken: internalToken)
    }
}

extension Router<NuvieRequestContext> {
    /// Request ids, request logs and metrics, the error shape, log positions (`LogPositionMiddleware`),
    /// bearer-token authentication, then the rate limit when there is one. Add before any route so
    /// every route gets them.
    public func addAPIMiddleware(tokens: NuvieTokens, rateLimit: RateLimit?, readYourWrites: ReadYourWrites) {
        addMiddleware {
            RequestObservationMiddleware()
            // Inside logs and metrics, so they record the status each error maps to, not a 500.
            ContractErrorMiddleware<NuvieRequestContext, NuvieAPIError>()
            LogPositionMiddleware(readYourWrites: readYourWrites)
            NuvieAuthMiddleware(tokens: tokens)
        }
        if let rateLimit {
            add(middleware: RateLimitMiddleware<NuvieRequestContext, NuvieAPIError>(rateLimit, user: { $0.userId }, refusal: NuvieAPIError.rateLimited))
        }
    }

    /// Every route of the contracts, each group mounted behind the credentials it needs: sign-in
    /// routes open, the app's routes behind a signed-in user (`NuvieSignedInContext`), `/ai` behind
    /// `X-Internal-Token`. A handler never checks credentials itself.
    public func addAPIRoutes(_ d: NuvieAPIDependencies) {
        OpenAPIDocumentController<NuvieRequestContext>(document: PackageResources.openapi_json).register(on: self)
        addRoutes(AuthController(
            commands: d.commands, users: d.users, tokens: d.tokens, apple: d.apple, devLoginEnabled: d.devLoginEnabled,
            readYourWrites: d.readYourWrites
        ).endpoints, atPath: "/auth")

        let signedIn = group(context: NuvieSignedInContext.self)
        signedIn.addRoutes(MoviesController(
            commands: d.commands, movies: d.movies, films: RememberedReads(revision: d.readModelRevision, capacity: 8_192), reviews: d.reviews, readYourWrites: d.readYourWrites,
            discovery: DiscoveryController(search: d.search), recommendations: d.recommendations
        ).endpoints, atPath: "/movies")
        signedIn.addRoutes(UsersController(commands: d.commands, users: d.users, social: d.social, movies: d.movies, readYourWrites: d.readYourWrites).endpoints, atPath: "/users")
        signedIn.addRoutes(SessionsController(commands: d.commands, tokens: d.tokens).endpoints, atPath: "/auth")
        signedIn.addRoutes(AccountController(accounts: d.accounts, users: d.users, tokens: d.tokens).endpoints, atPath: "/users/me")
        signedIn.addRoutes(FriendsController(commands: d.commands, social: d.social, readYourWrites: d.readYourWrites).endpoints, atPath: "/friends")
        signedIn.addRoutes(FeedController(
            activity: d.activity, movies: d.movies, recommendations: d.recommendations,
            activityPages: RememberedReads(revision: d.readModelRevision, capacity: 2_048)
        ).endpoints, atPath: "/feed")
        signedIn.get("/genres", use: GenresController(movies: d.movies).list)
        signedIn.addRoutes(ReviewsController(commands: d.commands, reviews: d.reviews, readYourWrites: d.readYourWrites).endpoints, atPath: "/reviews")

        if let internalToken = d.recommendations.internalToken {
            group("/ai")
                .add(middleware: HeaderTokenMiddleware<NuvieRequestContext, NuvieAPIError>(
                    header: "X-Internal-Token", token: internalToken,
                    refusal: NuvieAPIError.authenticationRequired("This endpoint needs the backend's X-Internal-Token")
                ))
                .addRoutes(AIController(engine: d.recommendations.local).endpoints)
        }
    }
}
