import HTTPTypes
import Hummingbird
import Logging

/// Gives every request an id: the client's `X-Request-Id` when it sends a sane one, otherwise
/// Hummingbird's. It is on every log line of the request and in the response's `X-Request-Id`.
public struct RequestIdMiddleware<Context: RequestContext>: RouterMiddleware {
    static var header: HTTPField.Name { .init("X-Request-Id")! }

    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let sent = request.headers[Self.header], (1...128).contains(sent.utf8.count),
           sent.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) {
            context.logger[metadataKey: "hb.request.id"] = .string(sent)
        }
        let id = context.id
        var response = try await next(request, context)
        response.headers[Self.header] = id
        return response
    }
}
