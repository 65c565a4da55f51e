import ReadModels
import EventLog
import Foundation
import HTTPServing
import Hummingbird
import Prometheus
import Synchronization

/// `GET /health`: the log head, where the log is (and, for a shared log, how far this node's copy is
/// behind it), each projection's position, lag and failure, what the product adds (its own
/// sections), and each store whose disk is full; 503 when a projection has stopped on an event
/// (`failing`), or a store refuses writes for want of space or the shared log cannot be reached
/// (`degraded`: reads are still served), or, on a node of a shared log, its read models have not held
/// the log once since it started (`catching_up`: a new node takes no traffic from a balancer until it
/// has folded, within `joiningWait` of a `/health`, all it saw written when asked (when at most
/// `joiningLag` behind); after that, a moment's lag under writes is `catching_up` with 200, as on one
/// machine). `GET /metrics`: Prometheus text.
public struct HealthController<Context: RequestContext>: Sendable {
    public typealias StorageFailure = @Sendable () -> (error: StorageFullError, since: Date)?

    let log: EventLog
    let projections: @Sendable () throws -> [ProjectionHealth]
    let storageFailures: [StorageFailure]
    let sections: @Sendable () -> [String: any Encodable & Sendable]
    let registry: PrometheusCollectorRegistry?
    /// Each exposed metric's `# HELP` text (`MetricHelp`).
    let metricHelp: [String: String]
    /// The read models' revision: it moves with every batch folded.
    let revision: @Sendable () -> UInt64
    let waitUntilApplied: @Sendable (_ position: UInt64, _ timeout: Duration) async -> Bool
    private let caughtUpOnce = Latch()
    /// How long a new node's `/health` waits for its read models to fold what it saw written, when
    /// they are at most `joiningLag` events behind it (further behind, it answers 503 at once).
    static var joiningWait: Duration { .milliseconds(500) }
    static var joiningLag: UInt64 { 2_000 }

    /// `sections` are written beside the engine's fields under their own names (`recommendationModel`…).
    public init<Catalog>(
        log: EventLog, runner: ProjectionRunner<Catalog>, registry: PrometheusCollectorRegistry?, metricHelp: [String: String] = [:],
        moreStorage: [StorageFailure] = [], sections: @escaping @Sendable () -> [String: any Encodable & Sendable] = { [:] }
    ) {
        self.log = log
        projections = { try runner.status().map(ProjectionHealth.init) }
        storageFailures = [{ log.storageFailure }, { runner.storageFailure }] + moreStorage
        self.sections = sections
        self.registry = registry
        self.metricHelp = metricHelp
        revision = { runner.revision }
        waitUntilApplied = { await runner.waitUntilApplied($0, timeout: $1) }
    }

    public func register(on router: Router<Context>) {
        router.get("health", use: health)
        router.get("health/live", use: live)
        router.get("metrics", use: metrics)
    }

    /// Liveness, for a supervisor that restarts what stops answering: 200 whenever the process serves.
    /// `/health` is readiness: its 503s (a full disk, an unreachable shared log, a failing projection,
    /// a node still catching up) are not mended by a restart, and a restart would lose the fold's progress.
    public func live(_ request: Request, context: Context) -> Liveness {
        Liveness()
    }

    public func health(_ request: Request, context: Context) async throws -> EditedResponse<Health> {
        var health = try current()
        let seen = max(health.logHeadPosition, health.log.sharedHeadPosition)
        if health.status == "catching_up", log.isShared, !caughtUpOnce.isSet, health.projections.allSatisfy({ $0.position + Self.joiningLag >= seen }) {
            // Under steady writes a new node is seldom at the head at the instant it is asked: one that
            // folds, within a moment, all it saw written when asked has held the log.
            if await waitUntilApplied(seen, Self.joiningWait) {
                caughtUpOnce.set()
                health = try current()
            }
        }
        return EditedResponse(status: health.unavailable ? .serviceUnavailable : .ok, response: health)
    }

    /// The health as `/health` answers it now.
    func current() throws -> Health {
        let head = log.headPosition
        let projections = try projections().map { $0.at(head: head) }
        let failed = projections.contains { $0.failedPosition != nil }
        let full = storageFailures.compactMap { $0() }.map {
            Health.FullStore(store: $0.error.store.rawValue, since: $0.since.formatted(.iso8601), error: $0.error.description)
        }
        let logHealth = LogHealth(log)
        let degraded = !full.isEmpty || logHealth.failure != nil
        let caughtUp = projections.allSatisfy { $0.lag == 0 } && logHealth.behind == 0
        if caughtUp { caughtUpOnce.set() }
        let starting = log.isShared && !caughtUpOnce.isSet
        let status = failed ? "failing" : degraded ? "degraded" : caughtUp ? "ok" : "catching_up"
        return Health(
            status: status, logHeadPosition: head, log: logHealth, projections: projections, sections: sections(), storageFull: full,
            unavailable: failed || degraded || starting
        )
    }

    public func metrics(_ request: Request, context: Context) async throws -> Response {
        if registry != nil { ProcessMetrics.record() }
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: registry.map { MetricHelp.annotated($0.emitToString(), help: metricHelp) } ?? ""))
        )
    }
}

public struct Liveness: ResponseEncodable, Sendable {
    var status = "alive"
}

public struct ProjectionHealth: Encodable, Sendable {
    var name: String
    var version: Int
    var position: UInt64
    var lag: UInt64 = 0
    @Nullable var failedPosition: UInt64?
    @Nullable var failure: String?

    init<Catalog>(_ status: ProjectionRunner<Catalog>.Status) {
        name = status.name
        version = status.version
        position = status.position
        failedPosition = status.failedPosition
        failure = status.failure
    }

    func at(head: UInt64) -> ProjectionHealth {
        var health = self
        health.lag = head > position ? head - position : 0
        return health
    }
}

/// Where the log is: `embedded` (LMDB in the data directory) or `postgres` (shared by every node, this
/// node reading its own copy, `behind` events behind the shared head as last heard), and which of the
/// URL's servers takes its writes now (`server`: null while none does, as during a failover).
struct LogHealth: Encodable, Sendable {
    var backend: String
    @Nullable var location: String?
    @Nullable var server: String?
    var sharedHeadPosition: UInt64
    var behind: UInt64
    @Nullable var failure: String?

    init(_ log: EventLog) {
        let shared = log.sharedHeadPosition
        backend = log.isShared ? "postgres" : "embedded"
        location = log.isShared ? log.location : nil
        server = log.sharedLogServer
        sharedHeadPosition = shared
        // Read once: the copy's head moves meanwhile and may pass the shared head as last heard.
        let copied = log.headPosition
        behind = shared > copied ? shared - copied : 0
        failure = log.sharedLogFailure.map { "since \($0.since.formatted(.iso8601)): \($0.message)" }
    }
}

public struct Health: ResponseEncodable, Sendable {
    /// A store whose last write failed for want of space (reads still work).
    struct FullStore: Encodable, Sendable {
        var store: String
        var since: String
        var error: String
    }

    var status: String
    var logHeadPosition: UInt64
    var log: LogHealth
    var projections: [ProjectionHealth]
    var sections: [String: any Encodable & Sendable]
    var storageFull: [FullStore]
    /// Answered with 503: a balancer sends this node no traffic.
    var unavailable: Bool

    /// The product's own sections as pretty JSON, by name (the console shows them as they are).
    func sectionsAsJSON() -> [[String: String]] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return sections.sorted { $0.key < $1.key }.map { name, section in
            ["name": name, "json": (try? encoder.encode(section)).map { String(decoding: $0, as: UTF8.self) } ?? "not encodable"]
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(status, forKey: Key("status"))
        try container.encode(logHeadPosition, forKey: Key("logHeadPosition"))
        try container.encode(log, forKey: Key("log"))
        try container.encode(projections, forKey: Key("projections"))
        for (name, section) in sections.sorted(by: { $0.key < $1.key }) { try container.encode(section, forKey: Key(name)) }
        try container.encode(storageFull, forKey: Key("storageFull"))
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
