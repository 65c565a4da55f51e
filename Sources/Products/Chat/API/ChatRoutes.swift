import ChatCommands
import ChatProjections
import Crypto
import EventLog
import HTTPServing
import Hummingbird
import PersonalData
import ProductHosting
import ReadModels

/// What the chat product's routes are built from; assembled by the App layer.
public struct ChatAPIDependencies: Sendable {
    public var conversations: Conversations
    public var queries: ChatQueries
    public var files: SealedFiles
    public var readYourWrites: ReadYourWrites
    /// Per user behind a token, per address on login and signup; nil turns it off.
    public var rateLimit: RateLimit?
    public var loginThrottle: LoginThrottleLimits
    /// Where failed logins are counted among every node of a shared log; nil on an embedded one.
    public var sharedAttempts: SharedAttempts?
    /// What the throttle's digests of emails and addresses are keyed with: the same on every node.
    public var loginDigestKey: SymmetricKey
    /// Deletion and export of the signed-in user's own account.
    public var accounts: UserAccounts<ChatProduct>

    public init(
        conversations: Conversations, queries: ChatQueries, files: SealedFiles, readYourWrites: ReadYourWrites, rateLimit: RateLimit?,
        loginThrottle: LoginThrottleLimits, sharedAttempts: SharedAttempts?, loginDigestKey: SymmetricKey, accounts: UserAccounts<ChatProduct>
    ) {
        self.accounts = accounts
        self.conversations = conversations
        self.queries = queries
        self.files = files
        self.readYourWrites = readYourWrites
        self.rateLimit = rateLimit
        self.loginThrottle = loginThrottle
        self.sharedAttempts = sharedAttempts
        self.loginDigestKey = loginDigestKey
    }
}

/// Failed logins allowed per email and per client address within a window before more are refused.
public struct LoginThrottleLimits: Sendable, Equatable {
    public var perAccount: Int
    public var perAddress: Int
    public var window: Duration

    public init(perAccount: Int, perAddress: Int, window: Duration) {
        self.perAccount = perAccount
        self.perAddress = perAddress
        self.window = window
    }

    public static let standard = LoginThrottleLimits(perAccount: 5, perAddress: 20, window: .seconds(15 * 60))
}

/// The chat product's middleware and routes on `router`: request ids, request logs and metrics, the
/// contract's error shape for every error (unknown routes included); `POST /api/login/` and
/// `POST /api/signup/` open; everything else behind `Authorization: Token …` (`TokenAuthMiddleware`,
/// `ChatSignedInContext`). Paths match with or without their trailing slash.
public func addChatRoutes(to router: Router<ChatRequestContext>, dependencies d: ChatAPIDependencies) {
    router.addMiddleware {
        RequestObservationMiddleware()
        ContractErrorMiddleware<ChatRequestContext, ChatAPIError>()
        LogPositionMiddleware(readYourWrites: d.readYourWrites)
    }
    let commands = d.conversations.commands
    let api = router.group("/api")
    let open = api.group()
    let signedIn = api.group().add(middleware: TokenAuthMiddleware(queries: d.queries, commands: commands, readYourWrites: d.readYourWrites))
    if let limit = d.rateLimit {
        open.add(middleware: RateLimitMiddleware<ChatRequestContext, ChatAPIError>(limit, user: { _ in nil }, refusal: ChatAPIError.rateLimited))
        signedIn.add(middleware: RateLimitMiddleware<ChatRequestContext, ChatAPIError>(limit, user: { $0.userId }, refusal: ChatAPIError.rateLimited))
    }
    let throttle = LoginThrottle(
        .init(perAccount: d.loginThrottle.perAccount, perAddress: d.loginThrottle.perAddress, window: d.loginThrottle.window),
        shared: d.sharedAttempts, digestKey: d.loginDigestKey
    )
    let accounts = AccountController(commands: commands, throttle: throttle, readYourWrites: d.readYourWrites)
    open.post("login", use: accounts.login)
    open.post("signup", use: accounts.signup)
    let user = signedIn.group(context: ChatSignedInContext.self)
    user.post("logout", use: accounts.logout)
    user.group("account").addRoutes(OwnAccountController(accounts: d.accounts, commands: commands, queries: d.queries, throttle: throttle).endpoints)
    let uploads = UploadBudget(bytes: AttachmentLimits.uploadMemoryBytes, unmetered: AttachmentLimits.maximumJSONBytes)
    user.post("send-chat", use: SendChatController(conversations: d.conversations, files: d.files, readYourWrites: d.readYourWrites, uploads: uploads).send)
    user.group("chat/sessions").addRoutes(SessionsController(commands: commands, queries: d.queries, readYourWrites: d.readYourWrites).endpoints)
    OpenAPIDocumentController<ChatRequestContext>(document: PackageResources.openapi_json).register(on: router)
}
