import EventLog
import EventSourcing
import Foundation
import Logging
import PersonalData
import ProductHosting
import ReadModels
import SavryCommands
import SavryDomain
import SavryProjections
import NIOConcurrencyHelpers
import TestSupport

/// Savry's real stores in a temp dir, opened as the server opens them (`ProductStores.open`: the
/// LMDB log, the key store sealing personal fields, the read database; erasures reconciled), with
/// Savry's runner over them.
final class SavryStorage: Sendable {
    /// A fixed master key for tests: 32 bytes, base64.
    static let masterKeyText = Data((0..<32).map { UInt8($0 * 7 & 0xFF) }).base64EncodedString()
    static let masterKey = try! MasterKey(base64: masterKeyText, source: "test")

    /// Keeps the temp dir alive while these stores use it (nil when the caller owns the directory).
    let temporary: TemporaryDirectory?
    let directory: URL
    let stores: ProductStores<SavryProduct>
    let runner: SavryRunner
    let commands: SavryCommandService
    private let closed = NIOLockedValueBox(false)

    var log: EventLog { stores.log }
    var database: ReadDatabase { stores.readDatabase }
    var store: SavryStore { stores.store }
    var data: DataDirectory { stores.directory }

    /// Fresh stores in a new temp dir.
    convenience init() async throws {
        let temporary = try TemporaryDirectory()
        try await self.init(directory: temporary.url, temporary: temporary)
    }

    /// The stores of the data directory `directory` (opened again after a restore, say); with
    /// `logURL`, a node's over the shared log there.
    init(directory: URL, temporary: TemporaryDirectory? = nil, logURL: String? = nil) async throws {
        self.temporary = temporary
        self.directory = directory
        stores = try await ProductStores<SavryProduct>.open(
            directory: DataDirectory(directory), masterKey: Self.masterKey, initialLogMapSize: 4 << 20, logURL: logURL, logger: Logger(label: "test")
        )
        runner = try stores.runner(batchSize: 3, logger: Logger(label: "test"))
        commands = SavryCommandService(store: stores.store)
    }

    /// Closes the stores (once), so that another `SavryStorage` or a backup can open the directory.
    func close() {
        let wasClosed = closed.withLockedValue { closed in
            defer { closed = true }
            return closed
        }
        if !wasClosed { stores.close() }
    }

    deinit { close() }

    /// Appends `event` to `stream` as recorded at `at`, whatever the stream holds, sealed.
    @discardableResult
    func append(_ event: SavryEvent, to stream: String, at: Date? = nil) async throws -> UInt64 {
        try await log.append(to: stream, expectedVersion: .any, events: [try store.newEvent(event, recordedAt: at)]).lastPosition
    }

    /// Every event after `position`, decoded (personal fields opened).
    func events(after position: UInt64) throws -> [SavryEvent] {
        try log.read(from: position + 1, limit: .max).map { try store.decode($0).event }
    }

    /// The same log folded from position 0 into a fresh read database, with the same keys: its
    /// canonical dump.
    func refold() throws -> String {
        let path = directory.appendingPathComponent("refold-\(UUID().uuidString)/read.sqlite").path
        let fresh = try ReadDatabase(path: path, projections: SavryReadModels.all)
        defer { try? fresh.close() }
        try SavryRunner(log: log, personalData: stores.personalData, database: fresh, projections: SavryReadModels.all, logger: Logger(label: "test"))
            .catchUp()
        return try fresh.canonicalDump()
    }

    /// Whether the raw bytes of the log's LMDB file hold `text` (UTF-8) anywhere.
    func logFileHolds(_ text: String) throws -> Bool {
        try Data(contentsOf: data.log.appendingPathComponent("data.mdb")).range(of: Data(text.utf8)) != nil
    }
}
