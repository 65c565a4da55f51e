import ArgumentParser
import EventLog
import Foundation
import ProductHosting
import ReadModels

/// `--position N | --time T`: which past state an `as-of` command shows, for any product.
public struct AsOfOptions: ParsableArguments {
    @Option(help: "The last log position to include.")
    public var position: UInt64?

    @Option(help: "An instant (2024-01-15T10:30:00Z or 2024-01-15): everything recorded at or before it (a time to the second: within that second too).", transform: OperatorTime.argumentThrough)
    public var time: Date?

    public init() {}

    public func validate() throws {
        guard (position == nil) != (time == nil) else { throw ValidationError("give exactly one of --position and --time") }
    }

    /// The log position meant, checked against the log's head, and when it was recorded.
    public func resolve(in log: EventLog) throws -> (position: UInt64, recordedAt: String) {
        let target = try position ?? TimeTravel.position(atOrBefore: time ?? Date(), in: log)
        guard target <= log.headPosition else { throw OperatorRefusal("the log ends at position \(log.headPosition)") }
        let at = try log.event(at: target).map { $0.recordedAt.formatted(.iso8601) } ?? "before the first event"
        return (target, at)
    }
}

extension ProductOptions {
    /// The product's read models as of log position `position`, folded from the live log into
    /// `read.sqlite` in `keptIn` (else in the data directory's scratch, removed after `body` returns). Personal
    /// fields are opened with the live key store: a user erased since reads as erased in every past
    /// state too.
    public func readModels<T>(
        of live: LiveLogAndKeys, at position: UInt64, keptIn: URL? = nil, _ body: (ReadDatabase) async throws -> T
    ) async throws -> T {
        let directory = try keptIn ?? existingProductDirectory().makeScratch("as-of")
        defer { if keptIn == nil { try? FileManager.default.removeItem(at: directory) } }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let database = try TimeTravel.readModels(
            Product.self, of: live.log, personalData: live.personalData, upTo: position,
            at: directory.appendingPathComponent("read.sqlite").path, logger: logger()
        )
        defer { try? database.close() }
        let result = try await body(database)
        // A kept file holds the whole state, not most of it in a WAL a copy of the file would leave behind.
        if keptIn != nil { try await database.truncateWAL() }
        return result
    }
}
