import HTTPServing
import Hummingbird
import NewsCommands
import NewsProjections
import ProductHosting
import ReadModels

public struct NewsAPIDependencies: Sendable {
    public var commands: NewsCommandService
    public var queries: NewsQueries
    public var readYourWrites: ReadYourWrites
    public var readModelRevision: ReadModelRevision
    /// Requests per minute per user (the contract's 100).
    public var requestsPerMinute: Int
    /// The user of a request that names none (`NewsRequestContext.defaultUser` in demo mode); nil:
    /// such a request is refused, as the contract's "User ID is required".
    public var defaultUser: String?

    public init(
        commands: NewsCommandService, queries: NewsQueries, readYourWrites: ReadYourWrites, readModelRevision: ReadModelRevision, requestsPerMinute: Int = 100,
        defaultUser: String?
    ) {
        self.commands = commands
        self.readModelRevision = readModelRevision
        self.queries = queries
        self.readYourWrites = readYourWrites
        self.requestsPerMinute = requestsPerMinute
        self.defaultUser = defaultUser
    }
}

/// The contract's `/v1` routes: request ids, logs, metrics, the `{"error","details"}` shape, the
/// user from `X-User-ID`, and the per-user (and per-address) rate limit with its headers on every
/// answer under `/v1`, unknown paths and refused methods included. `/health`, `/metrics` and `/openapi.json` count
/// against no user.
public func addNewsRoutes(to router: Router<NewsRequestContext>, dependencies d: NewsAPIDependencies) {
    router.addMiddleware {
        RequestObservationMiddleware()
        ContractErrorMiddleware<NewsRequestContext, NewsAPIError>()
        UnderV1 {
            UserIdMiddleware(defaultUser: d.defaultUser)
            RateLimitHeadersMiddleware(limiter: NewsRateLimiter(limit: d.requestsPerMinute))
        }
        LogPositionMiddleware(readYourWrites: d.readYourWrites)
    }
    let memo = RememberedAnswers(maximumBytes: 64 << 20)
    let reads = CurrentReads(queries: d.queries, readModels: d.readModelRevision)
    let feed = FeedController(reads: reads, memo: memo, readYourWrites: d.readYourWrites)
    let v1 = router.group("/v1")
    v1.get("feed", use: feed.feed)
    v1.get("personalized-feed", use: feed.personalized)
    v1.get("feed/story-groups", use: StoryGroupsController(reads: reads, memo: memo).storyGroups)
    v1.get("brief/latest", use: feed.brief)
    v1.post("interpret", use: InterpretController(reads: reads).interpret)
    v1.put("preferences", use: PreferencesController(commands: d.commands, readYourWrites: d.readYourWrites).update)
    OpenAPIDocumentController<NewsRequestContext>(document: PackageResources.openapi_json).register(on: router)
}
