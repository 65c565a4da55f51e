import Foundation

/// The last event a process's copy of a shared log holds.
public struct CopiedEvent: Sendable, Equatable {
    public var position: UInt64
    public var id: UUID
}

/// A log that the processes of several machines append to (PostgreSQL, in `PostgresLog`). It decides
/// every position, by the same `AppendPlanner` rules as the embedded log; each process keeps a copy of
/// it in its own embedded log, which serves every read (`SharedLogFollower`).
public protocol SharedLog: Sendable {
    /// Decides each request on its own (one refused does not refuse the others) and commits those
    /// accepted together, durably. Returns each request's decision and the shared head after the commit.
    ///
    /// `predicted` is what this process's copy says of the log: the version of every stream the
    /// requests touch, nil when an event id of theirs is already there (a retry). A log may decide on
    /// it and commit only if the log still holds exactly that (one round trip, where reading first
    /// takes several); when another process wrote to those streams meanwhile, it decides on what the
    /// log holds instead. Either way the decisions are the ones the log's own contents give.
    ///
    /// `copied` is the last event of this process's copy: the log writes nothing, and throws
    /// `EventLogError.historyParted`, unless it holds that event there (a standby promoted without
    /// every commit may have lost it and given its position to another).
    func append(
        _ requests: [[StreamAppend]], predicted: [String: UInt64]?, onTopOf copied: CopiedEvent?
    ) async throws -> (decisions: [Result<AppendDecision, EventLogError>], head: UInt64)

    /// Events after `position`, in order, at most `limit`: never with a gap, since a position is only
    /// readable once every position before it is.
    func events(after position: UInt64, limit: Int) async throws -> [RecordedEvent]

    /// The id of the event at `position`, nil when the log holds none there, as a server that takes
    /// writes says: throws when the one answering is a standby, which may only be behind.
    func eventId(at position: UInt64) async throws -> UUID?

    /// The position of the last event committed; 0 for an empty log.
    func head() async throws -> UInt64

    /// Runs until cancelled or closed, calling `heard` with the shared head whenever it may have moved: on
    /// every commit announced by any process, and by polling, in case an announcement is lost; and
    /// with the error when a poll finds the shared log unreachable.
    func watchHead(_ heard: @escaping @Sendable (Result<UInt64, any Error>) -> Void) async

    /// Runs `body` once this process leads `job` among every process of the log (one at a time), and
    /// returns when it returns. Leadership is lost with the connection that holds it (the process
    /// died, or the network): `body` is then cancelled and this process waits to lead again, while
    /// another takes over. Returns, `body` cancelled or never run, once the log is closed.
    func leading(_ job: String, _ body: @escaping @Sendable () async throws -> Void) async throws

    /// The number of a new stream `<prefix><number>` (a new user's), above `floor` and above every
    /// number handed out for `prefix` before, by any process: a node's own copy of the log cannot
    /// know the number another node handed out a moment ago.
    func nextNumber(_ prefix: String, above floor: Int64) async throws -> Int64

    /// Keeps `contents` under `name` for every process of the log, durably before it returns; the
    /// same name again keeps what is there (names are content-addressed). Files a node stores are
    /// read on every node (a user's upload), though each keeps its own copy.
    func storeFile(_ name: String, _ contents: Data) async throws

    /// The contents kept under `name`; nil when there are none.
    func file(_ name: String) async throws -> Data?

    /// Forgets every file whose name begins with `prefix` (an erased user's).
    func removeFiles(prefixed prefix: String) async throws

    /// Counts `attempt` under each of `keys` for `lasting`, among every process of the log, as still
    /// being checked, unless one of them already counts its limit (`limits`, in order) of attempts not
    /// yet expired: then counts nothing and says why; nil when counted.
    func countAttempt(_ attempt: UUID, under keys: [String], limits: [Int], lasting: Duration) async throws -> AttemptRefusal?

    /// `attempt` under `keys` has been checked and stays counted until it expires.
    func settleAttempt(_ attempt: UUID, under keys: [String]) async throws

    /// Takes `attempt` back from `keys`, and every attempt from `cleared`.
    func forgetAttempt(_ attempt: UUID, under keys: [String], withEveryAttemptUnder cleared: [String]) async throws

    /// Where this log is, for messages and `/health` (no password).
    var location: String { get }

    /// The server of `location` in use now (after a failover, the one promoted); nil while none is.
    var server: String? { get }

    /// Stops watching and closes the connections.
    func close()
}

/// The shared log did not answer in time (its server is down or unreachable). Nothing was recorded,
/// unless `outcomeUnknown`: the commit may have happened, and a retry under the same event ids (an
/// `Idempotency-Key`) is recognised either way.
public struct SharedLogUnreachable: Error, Equatable, Sendable, CustomStringConvertible {
    public var reason: String
    public var outcomeUnknown: Bool

    public init(reason: String, outcomeUnknown: Bool) {
        self.reason = reason
        self.outcomeUnknown = outcomeUnknown
    }

    public var description: String { "the shared event log is unreachable: \(reason)" }
}

/// Attempts counted among every process of a shared log (`SharedLog.countAttempt`): a limit on
/// failed logins that holds however a client's guesses are spread over nodes.
public struct SharedAttempts: Sendable {
    let log: any SharedLog

    /// nil when `attempt` is counted under every key, as being checked until `settle` or `forget`.
    public func count(_ attempt: UUID, under keys: [(key: String, limit: Int)], lasting: Duration) async throws -> AttemptRefusal? {
        try await log.countAttempt(attempt, under: keys.map(\.key), limits: keys.map(\.limit), lasting: lasting)
    }

    public func settle(_ attempt: UUID, under keys: [String]) async throws {
        try await log.settleAttempt(attempt, under: keys)
    }

    public func forget(_ attempt: UUID, under keys: [String], withEveryAttemptUnder cleared: [String] = []) async throws {
        try await log.forgetAttempt(attempt, under: keys, withEveryAttemptUnder: cleared)
    }
}

/// Why an attempt was not counted: a key holds its limit of attempts. `failed` when it holds that
/// many checked ones, and `wait` is then how long until the oldest expires; otherwise some are still
/// being checked, and `wait` is a second.
public struct AttemptRefusal: Sendable, Equatable {
    public var wait: Duration
    public var failed: Bool

    public init(wait: Duration, failed: Bool) {
        self.wait = wait
        self.failed = failed
    }
}

/// The files of a shared log (`SharedLog.storeFile`), for what every node must read.
public struct SharedFiles: Sendable {
    let log: any SharedLog

    public init(log: any SharedLog) {
        self.log = log
    }

    public func store(_ name: String, _ contents: Data) async throws { try await log.storeFile(name, contents) }

    public func contents(_ name: String) async throws -> Data? { try await log.file(name) }

    public func removeAll(prefixed prefix: String) async throws { try await log.removeFiles(prefixed: prefix) }
}
