import Commands
import Hummingbird
import Projections
import Recommendations

/// What the API's controllers are built from; assembled by the App.
public struct APIDependencies: Sendable {
    public var commands: CommandService
    public var movies: MovieQueries
    public var reviews: ReviewQueries
    public var users: UserQueries
    public var social: SocialQueries
    public var search: SearchQueries
    public var activity: ActivityQueries
    public var tokens: TokenService
    public var apple: AppleIdentityVerifier?
    public var devLoginEnabled: Bool
    public var readYourWrites: ReadYourWrites
    public var audit: AuditTrail
    public var replays: ReplayCoordinator
    /// Opens `/admin/…`; without one those routes do not exist.
    public var adminToken: String?
    public var recommendations: RecommendationDependencies

    public init(
        commands: CommandService, movies: MovieQueries, reviews: ReviewQueries, users: UserQueries, social: SocialQueries, search: SearchQueries,
        activity: ActivityQueries, tokens: TokenService,
        apple: AppleIdentityVerifier?, devLoginEnabled: Bool, readYourWrites: ReadYourWrites, audit: AuditTrail,
        replays: ReplayCoordinator, adminToken: String?, recommendations: RecommendationDependencies
    ) {
        self.recommendations = recommendations
        self.audit = audit
        self.replays = replays
        self.adminToken = adminToken
        self.commands = commands
        self.movies = movies
        self.reviews = reviews
        self.users = users
        self.social = social
        self.search = search
        self.activity = activity
        self.tokens = tokens
        self.apple = apple
        self.devLoginEnabled = devLoginEnabled
        self.readYourWrites = readYourWrites
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
}

extension Router<AppRequestContext> {
    /// Request ids, request logs and metrics, the error shape, bearer-token authentication, then the
    /// rate limit when there is one. Add before any route so every route gets them.
    public func addAPIMiddleware(tokens: TokenService, rateLimit: RateLimit?) {
        addMiddleware {
            RequestIdMiddleware()
            LogRequestsMiddleware(.info)
            MetricsMiddleware()
            // Inside logs and metrics, so they record the status each error maps to, not a 500.
            ErrorMiddleware()
            AuthMiddleware(tokens: tokens)
        }
        if let rateLimit { add(middleware: RateLimitMiddleware(rateLimit)) }
    }

    public func addAPIRoutes(_ d: APIDependencies) {
        addRoutes(AuthController(
            commands: d.commands, users: d.users, tokens: d.tokens, apple: d.apple, devLoginEnabled: d.devLoginEnabled,
            readYourWrites: d.readYourWrites
        ).endpoints, atPath: "/auth")
        addRoutes(MoviesController(
            commands: d.commands, movies: d.movies, reviews: d.reviews, readYourWrites: d.readYourWrites,
            discovery: DiscoveryController(search: d.search), recommendations: d.recommendations
        ).endpoints, atPath: "/movies")
        addRoutes(UsersController(commands: d.commands, users: d.users, social: d.social, movies: d.movies, readYourWrites: d.readYourWrites).endpoints, atPath: "/users")
        addRoutes(FriendsController(commands: d.commands, social: d.social, readYourWrites: d.readYourWrites).endpoints, atPath: "/friends")
        addRoutes(FeedController(activity: d.activity, movies: d.movies, recommendations: d.recommendations).endpoints, atPath: "/feed")
        if let internalToken = d.recommendations.internalToken {
            addRoutes(AIController(engine: d.recommendations.local, internalToken: internalToken).endpoints, atPath: "/ai")
        }
        get("/genres", use: GenresController(movies: d.movies).list)
        if let adminToken = d.adminToken {
            addRoutes(AdminController(audit: d.audit, replays: d.replays, adminToken: adminToken).endpoints, atPath: "/admin")
        }
        OpenAPIController().register(on: self)
        addRoutes(ReviewsController(commands: d.commands, reviews: d.reviews, readYourWrites: d.readYourWrites).endpoints, atPath: "/reviews")
    }
}
