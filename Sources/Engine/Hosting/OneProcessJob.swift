import EventLog
import ServiceLifecycle

/// A job that must run in one process of a product at a time (News' feed poller): with a shared log,
/// in the node that leads it, and in another when that one dies; with an embedded log, here.
public struct OneProcessJob: Service {
    let name: String
    let log: EventLog
    let job: any Service

    public init(_ name: String, log: EventLog, job: any Service) {
        self.name = name
        self.log = log
        self.job = job
    }

    /// Until a graceful shutdown, which ends the wait for the lead as well as the job: a node that did
    /// not lead stopped only once it led (the leader had to stop first, and it then took the lead).
    public func run() async throws {
        try await cancelWhenGracefulShutdown { [log, name, job] in
            try await log.asTheOneProcess(doing: name) { try await job.run() }
        }
    }
}
