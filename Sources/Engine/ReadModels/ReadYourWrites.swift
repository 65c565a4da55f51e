/// What every write needs after its append: to answer only once the read models show it, so a read
/// right after a write sees it. A product answers `ReadModelsBehind` in its own shape (a 503: the
/// change is saved, only not yet visible).
public struct ReadYourWrites: Sendable {
    private let applied: @Sendable (_ position: UInt64, _ timeout: Duration) async -> Bool
    private let folded: @Sendable () -> UInt64
    private let written: @Sendable () -> UInt64?
    private let timeout: Duration

    public init<Catalog>(runner: ProjectionRunner<Catalog>, timeout: Duration) {
        applied = { position, timeout in await runner.waitUntilApplied(position, timeout: timeout) }
        folded = { runner.appliedPosition }
        let log = runner.log
        written = { log.isShared ? nil : log.headPosition }
        self.timeout = timeout
    }

    /// The last position written, when this node's log is the only one (embedded): a position past it
    /// was never given out, and waiting for it would only hold the connection. Nil on a shared log,
    /// where another node may have just written it.
    public var writtenPosition: UInt64? { written() }

    /// The log position every read model here has folded through.
    public var appliedPosition: UInt64 { folded() }

    /// Waits until the read models include `position`.
    public func wait(for position: UInt64) async throws(ReadModelsBehind) {
        guard await applied(position, timeout) else { throw ReadModelsBehind(position: position) }
    }
}

/// A recorded change the read models did not show within the read-your-writes timeout.
public struct ReadModelsBehind: Error, Equatable {
    public var position: UInt64

    public init(position: UInt64) {
        self.position = position
    }
}
