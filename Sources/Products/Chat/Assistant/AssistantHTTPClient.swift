import AsyncHTTPClient

extension HTTPClient {
    /// For calls to a model's API: a connection that cannot be made (refused, no route) fails the
    /// request at once, answered 502 `assistant_unavailable`, where the shared client would try it
    /// again until the request's deadline (`CHAT_OPENAI_TIMEOUT_SECONDS`, a minute by default).
    public static let assistantCalls: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.connectionPool.retryConnectionEstablishment = false
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()
}
