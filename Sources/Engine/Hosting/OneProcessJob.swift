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

    public func run() async throws {
        try await log.asTheOneProcess(doing: name) { [job] in try await job.run() }
    }
}
