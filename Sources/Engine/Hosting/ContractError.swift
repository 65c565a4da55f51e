import Hummingbird

/// A product's error type: how it answers every refusal of the engine's, and its own errors.
public protocol ContractError: HTTPResponseError {
    /// The product's answer to an engine refusal: the refusal's status, code, title, sentence and
    /// headers in the product's shape; where it says more, an exhaustive `switch`.
    init(_ refusal: EngineRefusal)
    /// The answer to one of the product's own errors (its domain's, its API's); nil for anything
    /// else, which is a bug and answered `internalError`.
    static func mapping(_ error: any Error) -> Self?
    static var internalError: Self { get }
}

extension ContractError {
    /// The answer to any error a handler or middleware throws; nil when it is a bug.
    public static func answer(to error: any Error) -> Self? {
        if let refusal = EngineRefusal(error) { return Self(refusal) }
        return mapping(error)
    }

    /// `error` answered in the product's shape, what the HTTP layer's own error says beside its
    /// status (a 405's `Allow`) kept; nil when it is a bug.
    public static func response(answering error: any Error, from request: Request, context: some RequestContext) throws -> Response? {
        guard let answer = answer(to: error) else { return nil }
        var response = try answer.response(from: request, context: context)
        if let http = error as? HTTPError { response.headers.append(contentsOf: http.headers.filter { response.headers[$0.name] == nil }) }
        return response
    }
}

/// Turns every error into the product's shape. An unexpected one is logged with the request id and
/// answered without internals. Mounted inside logs and metrics, so they record the status each
/// error maps to, not a 500.
public struct ContractErrorMiddleware<Context: RequestContext, Failure: ContractError>: RouterMiddleware {
    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            if let response = try Failure.response(answering: error, from: request, context: context) { return response }
            context.logger.error("unexpected error", metadata: ["error": "\(String(reflecting: error))", "path": "\(request.uri.path)"])
            return try Failure.internalError.response(from: request, context: context)
        }
    }
}
