import Metrics

/// What every write needs after its append: to answer only once the read models show it, so a read
/// right after a write sees it. A product answers `ReadModelsBehind` in its own shape (a 503: the
/// change is saved, only not yet visible).
public struct ReadYourWrites: Sendable {
    private let applied: @Sendable (_ position: UInt64, _ timeout: Duration) async -> Bool
    private let folded: @Sendable () -> UInt64
    private let written: @Sendable () -> UInt64?
    private let sharedHead: @Sendable () async throws -> UInt64?
    private let timeout: Duration
    /// Second lookups (`found`): how often a node is asked for what it had not yet copied.
    private let lookupsFound = Counter(label: "engine_lookups_after_catching_up_total", dimensions: [("outcome", "found")])
    private let lookupsMissing = Counter(label: "engine_lookups_after_catching_up_total", dimensions: [("outcome", "missing")])

    public init<Catalog>(runner: ProjectionRunner<Catalog>, timeout: Duration) {
        applied = { position, timeout in await runner.waitUntilApplied(position, timeout: timeout) }
        folded = { runner.appliedPosition }
        let log = runner.log
        written = { log.isShared ? nil : log.headPosition }
        sharedHead = { try await log.currentSharedHead() }
        self.timeout = timeout
    }

    /// The last position written, when this node's log is the only one (embedded): a position past it
    /// was never given out, and waiting for it would only hold the connection. Nil on a shared log,
    /// where another node may have just written it.
    public var writtenPosition: UInt64? { written() }

    /// The last position written to the log as it is now: this node's own head on an embedded log; on
    /// a shared one, the head its server holds (`EventLog.currentSharedHead`, one query shared among
    /// this node's asks). Throws `SharedLogUnreachable` when the server cannot say.
    public func lastWritten() async throws -> UInt64 {
        if let written = written() { return written }
        return try await sharedHead() ?? folded()
    }

    /// The log position every read model here has folded through.
    public var appliedPosition: UInt64 { folded() }

    /// What `lookup` finds here; when it finds nothing on a node of a shared log whose read models
    /// are behind the log as its server holds it now, what it finds once they have folded that far
    /// (within the timeout). A token another node issued a moment ago is then known here too: a
    /// client signed in through one node may send its next request through another.
    /// Throws `SharedLogUnreachable` when the log's server cannot say where the log is, and
    /// `NotCaughtUp` when the read models did not fold that far in time and `lookup` still finds
    /// nothing: not knowing is not a refusal, and a client told 401 would drop a token that may be good.
    public func found<T>(_ lookup: () throws -> T?) async throws -> T? {
        if let found = try lookup() { return found }
        guard let head = try await sharedHead() else { return nil }
        // Looked up again even when already folded that far: the fold may have ended since the first.
        let caughtUp = head <= folded() ? true : await applied(head, timeout)
        let found = try lookup()
        (found == nil ? lookupsMissing : lookupsFound).increment()
        guard found != nil || caughtUp else { throw NotCaughtUp(position: head) }
        return found
    }

    /// Whether `check` holds, as `found` finds: on a node of a shared log, once it holds the log as it is now.
    public func holds(_ check: () throws -> Bool) async throws -> Bool {
        try await found { try check() ? true : nil } ?? false
    }

    /// On a node of a shared log where `check` does not hold, waits until the node holds the log as
    /// it is now (as `found` does); on an embedded log, returns at once without checking.
    public func catchUp(unless check: () throws -> Bool) async throws {
        guard written() == nil else { return }
        _ = try await holds(check)
    }

    /// Waits until the read models include `position`.
    public func wait(for position: UInt64) async throws(ReadModelsBehind) {
        guard await applied(position, timeout) else { throw ReadModelsBehind(position: position) }
    }
}

/// A position a request needs the read models to have folded, which they had not within the
/// read-your-writes timeout: nothing was done.
public struct NotCaughtUp: Error, Equatable {
    public var position: UInt64

    public init(position: UInt64) {
        self.position = position
    }
}

/// A recorded change the read models did not show within the read-your-writes timeout.
public struct ReadModelsBehind: Error, Equatable {
    public var position: UInt64

    public init(position: UInt64) {
        self.position = position
    }
}
