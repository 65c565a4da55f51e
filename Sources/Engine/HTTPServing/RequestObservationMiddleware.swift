import HTTPTypes
import Hummingbird
import Logging
import Metrics
import NIOConcurrencyHelpers

/// Each request's id, its debug log line and its metrics, in one layer, outermost.
///
/// The id is the client's `X-Request-Id` when it sends a sane one, otherwise Hummingbird's; it is on
/// every log line of the request and in the response's `X-Request-Id`. The metrics are Hummingbird's
/// `MetricsMiddleware`'s (`hb.requests`, `http.server.request.duration`, `hb.request.errors`,
/// `http.server.active_requests`), with one difference that is the reason this type exists: the
/// duration ends when the response is ready, not after its body is written. Measuring the write
/// wraps the body in a closure, and then the server writes head and body in two system calls
/// instead of one, which cost a third of the throughput of a small JSON answer (BENCHMARKS.md).
public struct RequestObservationMiddleware<Context: RequestContext>: RouterMiddleware {
    static var header: HTTPField.Name { .requestId }
    private let metrics = RequestMetrics()

    public init() {}

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let sent = HTTPField.Name.saneRequestId(request.headers[Self.header]) {
            context.logger[metadataKey: "hb.request.id"] = .string(sent)
        }
        context.logger.debug("Request", metadata: [
            "hb.request.path": .stringConvertible(request.uri), "hb.request.method": .string(request.method.rawValue),
        ])
        let started = ContinuousClock.now
        let active = metrics.active(request.method)
        active.increment()
        defer { active.decrement() }
        do {
            var response = try await RequestIdentity.$current.withValue(context.logger[metadataKey: "hb.request.id"]) {
                try await next(request, context)
            }
            metrics.record(request, context, status: response.status, started: started, failed: false)
            response.headers[Self.header] = context.id
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            metrics.record(request, context, status: status, started: started, failed: true)
            throw error
        }
    }
}

/// The id of the request this task serves, for log lines written by loggers that are not the
/// request's: a product's services log with their own (the assistant's failure, the AI service's
/// fallback), and `logMetadata` puts the id on those lines too.
public enum RequestIdentity {
    /// As the request's logger holds it: rendered only when a line is written.
    @TaskLocal public static var current: Logger.MetadataValue?

    public static let logMetadata = Logger.MetadataProvider {
        current.map { ["hb.request.id": $0] } ?? [:]
    }
}

/// The metric handles by method, route and status, made once: the metrics backend's own lookup by
/// label and dimensions costs more than the request's counting.
private final class RequestMetrics: Sendable {
    private struct Route: Hashable {
        let path: String
        let method: HTTPRequest.Method
        let status: HTTPResponse.Status
        /// Answered from a thrown error: only such a route has an error count, so that no series
        /// of errors is exported for an answer that is none.
        let failed: Bool
    }

    private struct Handles: Sendable {
        let requests: Counter
        let duration: Timer
        let errors: Counter?

        init(_ route: Route) {
            let dimensions = [
                ("http.route", route.path), ("http.request.method", route.method.rawValue),
                ("http.response.status_code", String(route.status.code)),
            ]
            requests = Counter(label: "hb.requests", dimensions: dimensions)
            duration = Timer(label: "http.server.request.duration", dimensions: dimensions, preferredDisplayUnit: .seconds)
            errors = route.failed ? Counter(label: "hb.request.errors", dimensions: [
                ("http.route", route.path), ("http.request.method", route.method.rawValue), ("error.type", String(route.status.code)),
            ]) : nil
        }
    }

    private let routes = NIOLockedValueBox<[Route: Handles]>([:])
    private let activeByMethod = NIOLockedValueBox<[HTTPRequest.Method: Meter]>([:])

    func active(_ method: HTTPRequest.Method) -> Meter {
        activeByMethod.withLockedValue { meters in
            if let meter = meters[method] { return meter }
            let meter = Meter(label: "http.server.active_requests", dimensions: [("http.request.method", method.rawValue)])
            meters[method] = meter
            return meter
        }
    }

    func record<Context: RequestContext>(_ request: Request, _ context: Context, status: HTTPResponse.Status, started: ContinuousClock.Instant, failed: Bool) {
        let route = Route(path: context.endpointPath ?? (failed ? "NotFound" : "Unknown"), method: request.method, status: status, failed: failed)
        let handles = routes.withLockedValue { known in
            if let handles = known[route] { return handles }
            let handles = Handles(route)
            known[route] = handles
            return handles
        }
        handles.requests.increment()
        let elapsed = (ContinuousClock.now - started).components
        handles.duration.recordNanoseconds(elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000)
        handles.errors?.increment()
    }
}

extension HTTPField.Name {
    static var requestId: Self { .init("X-Request-Id")! }

    /// A client's `X-Request-Id` when it is one to take as the request's: 1–128 visible ASCII characters.
    static func saneRequestId(_ sent: String?) -> String? {
        guard let sent, (1...128).contains(sent.utf8.count), sent.utf8.allSatisfy({ $0 > 32 && $0 < 127 }) else { return nil }
        return sent
    }
}
