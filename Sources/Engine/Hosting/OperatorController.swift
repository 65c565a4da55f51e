import EventLog
import Foundation
import HTTPServing
import JSONText
import Hummingbird
import ReadModels

/// Operator endpoints, the same for every product; the product mounts them behind its admin-token
/// gate and renders `OperatorRequestError` in its own error shape.
/// `GET /admin/users/{user_id}/audit?from=&to=&limit=&offset=`: every event the user caused or that
/// concerns them; `GET /admin/streams/{stream_id}/events`: one stream's history; `GET
/// /admin/events?from=&limit=`: the log itself, in order; `POST /admin/replay` `{"projections": [...]}`
/// (optional: all when absent) rebuilds read models while serving, and `GET /admin/replay` shows
/// how it goes; `POST /admin/users/{user_id}/erase` erases an account for a support request, as the
/// user's own deletion does (`UserErasure`).
public struct OperatorController<Context: RequestContext>: Sendable {
    let audit: AuditTrail
    let replays: ReplayCoordinator
    /// Erases a user and waits until the read models show it; returns the erasure's log position.
    let erase: @Sendable (Int64) async throws -> UInt64

    static var maximumEventsPerPage: Int { 1000 }

    public init(audit: AuditTrail, replays: ReplayCoordinator, erase: @escaping @Sendable (Int64) async throws -> UInt64) {
        self.audit = audit
        self.replays = replays
        self.erase = erase
    }

    public var endpoints: RouteCollection<Context> {
        RouteCollection(context: Context.self)
            .get("users/:user_id/audit", use: userAudit)
            .post("users/:user_id/erase", use: eraseUser)
            .get("streams/:stream_id/events", use: streamEvents)
            .get("events", use: events)
            .post("replay", use: startReplay)
            .get("replay", use: replayStatus)
    }

    func userAudit(_ request: Request, context: Context) async throws -> AuditPage {
        let userId = try Self.userId(context)
        let limit = try Self.integer(request, "limit", default: 20, range: 1...100)
        let offset = try Self.integer(request, "offset", default: 0, range: 0...Int(Int32.max))
        let entries = try audit.user(userId, from: try Self.time(request, "from", parse: OperatorTime.parse), to: try Self.time(request, "to", parse: OperatorTime.parseThrough))
        let items = entries.dropFirst(offset).prefix(limit).map(AuditEntryDTO.init)
        return AuditPage(events: Array(items), totalCount: entries.count, limit: limit, offset: offset, hasMore: offset + items.count < entries.count)
    }

    func eraseUser(_ request: Request, context: Context) async throws -> ErasureDTO {
        _ = try await Self.body(request, fields: [])
        let userId = try Self.userId(context)
        do {
            return ErasureDTO(userId: userId, position: try await erase(userId))
        } catch UserErasureFailure.unknownUser {
            throw OperatorRequestError.userNotFound("No user \(userId)")
        } catch UserErasureFailure.alreadyErased {
            throw OperatorRequestError.conflict("User \(userId) is already erased")
        }
    }

    func streamEvents(_ request: Request, context: Context) async throws -> LogPage {
        let stream = context.parameters.get("stream_id") ?? ""
        return LogPage(events: try audit.stream(stream).map(AuditEntryDTO.init), nextFrom: nil, headPosition: audit.headPosition)
    }

    func events(_ request: Request, context: Context) async throws -> LogPage {
        let from = try Self.integer(request, "from", default: 1, range: 1...Int(Int64.max))
        let limit = try Self.integer(request, "limit", default: 100, range: 1...Self.maximumEventsPerPage)
        let page = try audit.events(from: UInt64(from), limit: limit)
        let next = page.last.map { $0.position + 1 }.flatMap { $0 <= audit.headPosition ? $0 : nil }
        return LogPage(events: page.map(AuditEntryDTO.init), nextFrom: next, headPosition: audit.headPosition)
    }

    func startReplay(_ request: Request, context: Context) async throws -> EditedResponse<ReplayStatusDTO> {
        let names = try await Self.projectionNames(request, context: context)
        do {
            return EditedResponse(status: .accepted, response: ReplayStatusDTO(try await replays.start(names)))
        } catch ReplayCoordinator.Refusal.alreadyRunning {
            throw OperatorRequestError.conflict("A replay is already running; follow it at GET /admin/replay")
        } catch let error as RebuildError {
            throw OperatorRequestError.invalid(error.description, field: "projections")
        }
    }

    func replayStatus(_ request: Request, context: Context) async throws -> ReplayStatusDTO {
        ReplayStatusDTO(await replays.status)
    }

    /// The body as a JSON object holding only `fields`; nil when there is none. A field the endpoint
    /// does not read is refused rather than dropped (an erase sent `{"user_id": …}` erased the user in
    /// its path).
    private static func body(_ request: Request, fields: Set<String>) async throws -> [String: JSONValue]? {
        let body = try await request.body.collect(atMost: 64 << 10)
        guard body.readableBytes > 0 else { return nil }
        guard request.headers.declaresJSON else {
            throw OperatorRequestError.unsupportedMediaType("The body must be JSON (Content-Type: application/json)")
        }
        guard case .object(let object)? = try? StrictJSON.parse(Array(buffer: body)) else {
            throw OperatorRequestError.invalid("The body must be a JSON object", field: nil)
        }
        if let unknown = object.firstField(notIn: fields) {
            throw OperatorRequestError.invalid("Unknown field \(unknown)", field: unknown)
        }
        return object
    }

    /// `{"projections": ["name", …]}`, or an empty body for all of them.
    private static func projectionNames(_ request: Request, context: Context) async throws -> [String]? {
        guard let object = try await body(request, fields: ["projections"]), let value = object["projections"], value != .null else { return nil }
        guard case .array(let items) = value, (1...32).contains(items.count) else {
            throw OperatorRequestError.invalid("projections must be a list of 1 to 32 names (leave it out to rebuild them all)", field: "projections")
        }
        var seen = Set<String>()
        return try items.compactMap {
            guard case .string(let name) = $0, (1...64).contains(name.count) else {
                throw OperatorRequestError.invalid("projections must be a list of names", field: "projections")
            }
            return seen.insert(name).inserted ? name : nil
        }
    }

    private static func userId(_ context: Context) throws -> Int64 {
        guard let userId = context.parameters.get("user_id").flatMap(Int64.init), userId > 0 else {
            throw OperatorRequestError.invalid("user_id must be a positive integer", field: "user_id")
        }
        return userId
    }

    private static func integer(_ request: Request, _ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let parsed = request.queryInteger(name, default: value, in: range) else {
            throw OperatorRequestError.invalid("\(name) must be an integer from \(range.lowerBound) to \(range.upperBound)", field: name)
        }
        return parsed
    }

    private static func time(_ request: Request, _ name: String, parse: (String) -> Date?) throws -> Date? {
        guard let raw = request.uri.queryParameters[name[...]] else { return nil }
        guard let date = parse(String(raw)) else {
            throw OperatorRequestError.invalid("\(name) must be a time like 2024-01-15T10:30:00Z or a date like 2024-01-15", field: name)
        }
        return date
    }
}

/// A refused operator request; each product answers it in its own error shape.
public enum OperatorRequestError: Error, Equatable, Sendable {
    case invalid(String, field: String?)
    case conflict(String)
    case userNotFound(String)
    case unsupportedMediaType(String)
}

extension ProductStores {
    /// The engine's routes over these stores, after the product's own (so that they get its
    /// middleware): `/health` and `/metrics` (`HealthController`, with the product's `moreStorage`
    /// and `sections`), then, when the configuration has an operator token, the operator endpoints
    /// and the console (`Router.addOperatorRoutes`); without one there is no `/admin`. `refusal`
    /// answers a missing or wrong `X-Admin-Token` in the product's error shape.
    public func addEngineRoutes<Context: RequestContext, Refusal: Error & Sendable>(
        to router: Router<Context>, configuration: some ServerConfiguration, runner: ProjectionRunner<Product.Catalog>,
        refusal: Refusal, moreStorage: [HealthController<Context>.StorageFailure] = [], sections: @escaping @Sendable () -> [String: any Encodable & Sendable] = { [:] },
        erase: @escaping @Sendable (Int64) async throws -> UInt64
    ) throws {
        let health = HealthController<Context>(
            log: log, runner: runner, registry: configuration.metricsRegistry,
            metricHelp: MetricHelp.exposed(for: Product.name, own: Product.metricHelp), moreStorage: [{ [keys] in keys.storageFailure }] + moreStorage, sections: sections
        )
        health.register(on: router)
        guard let token = try configuration.operatorToken(Product.self) else { return }
        let audit = AuditTrail(log: log, catalog: Product.Catalog.self), replays = runner.replays
        router.addOperatorRoutes(token: token, refusal: refusal, audit: audit, replays: replays, erase: erase)
        let (log, directory) = (log, directory)
        ConsoleController(
            sessions: ConsoleSessions(token: token), pages: ConsolePages(product: Product.name), audit: audit, replays: replays, health: health,
            directory: directory, tokenSetting: "\(Product.environmentPrefix)_ADMIN_TOKEN", readOnly: configuration.readOnly,
            backUp: { try Backup.create(Product.self, of: log, in: directory, to: $0).logHeadPosition }, erase: erase
        ).register(on: router)
    }
}

extension ServerConfiguration {
    /// `/admin`'s token: `<NAME>_ADMIN_TOKEN` (at least 32 bytes), else in demo mode one generated
    /// once into the data directory (`admin-token`; a past state reads the live one's); nil: no
    /// operator routes.
    public func operatorToken<Product: EventSourcedProduct>(_: Product.Type) throws -> String? {
        try secret(serving.adminToken, named: "\(Product.environmentPrefix)_ADMIN_TOKEN", file: "admin-token")
    }
}

extension Router {
    /// Mounts the operator endpoints under `/admin`, behind the operator's `X-Admin-Token` (a missing
    /// or wrong one is answered with `refusal`, in the product's error shape). Call after the
    /// product's routes, so that these get its middleware.
    public func addOperatorRoutes<Refusal: Error & Sendable>(
        token: String, refusal: Refusal, audit: AuditTrail, replays: ReplayCoordinator,
        erase: @escaping @Sendable (Int64) async throws -> UInt64
    ) {
        group("/admin")
            .add(middleware: HeaderTokenMiddleware<Context, Refusal>(header: "X-Admin-Token", token: token, refusal: refusal))
            .addRoutes(OperatorController<Context>(audit: audit, replays: replays, erase: erase).endpoints)
    }
}
