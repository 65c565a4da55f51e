import EventLog
import EventSourcing
import Foundation
import GRDB
import Logging
import PersonalData
import ProductHosting
import ReadModels
import TestSupport
import Testing

/// The test product with its tallies refusing plates (the second event): a projection stopped behind the other.
enum RefusingTallyProduct: EventSourcedProduct {
    typealias Catalog = TallyCatalog
    static let name = "tally"
    static var projections: [any Projection<TallyEvent>] { [TallyProjection(failingAt: "plates"), NotesProjection()] }
    static func userStream(_ userId: Int64) -> String { TallyProduct.userStream(userId) }
}

/// The engine's operator tools on its test product, with real stores in a data directory: `verify`
/// compares the read models with a fresh fold of the log, and a past state is the log folded to a
/// position.
@Suite struct VerifyAndTimeTravelTests {
    static let counts: [(tally: String, user: Int64, amount: Int)] = [("cups", 1, 2), ("plates", 2, 1), ("cups", 2, 3), ("bowls", 1, 1)]

    /// A product's stores in `data`, given the counts, folded, then closed.
    static func given<Product: EventSourcedProduct>(_ data: URL, masterKey: MasterKey, product: Product.Type = TallyProduct.self) async throws
    where Product.Catalog == TallyCatalog {
        let stores = try await ProductStores<Product>.open(directory: DataDirectory(data), masterKey: masterKey, logger: Logger(label: "test"))
        defer { stores.close() }
        for (tally, user, amount) in counts {
            _ = try await stores.store.append([.counted(Counted(tally: tally, userId: user, amount: amount, note: "note of \(user)"))], to: "tally-\(tally)", eventId: .timeOrdered())
        }
        _ = try stores.runner(logger: Logger(label: "test")).catchUp()
    }

    @Test func verifyFindsWhatAFreshFoldFindsAndNamesATableThatDiffers() async throws {
        let directory = try TemporaryDirectory()
        let (data, masterKey) = (directory.url.appendingPathComponent("data"), try MasterKey.demo(file: directory.url.appendingPathComponent("master-key")))
        try await Self.given(data, masterKey: masterKey)
        let scratch = { (name: String) throws -> URL in
            let url = directory.url.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url
        }

        let same = try await Verify.run(TallyProduct.self, dataDirectory: data, masterKey: masterKey, scratch: try scratch("first"))
        #expect(same.isIdentical && same.position == 4 && same.tables == 2)

        let edited = try DatabaseQueue(path: DataDirectory(data).readDatabasePath)
        try await edited.write { try $0.execute(sql: "UPDATE tally SET total = total + 1 WHERE name = 'cups'") }
        try edited.close()
        let differs = try await Verify.run(TallyProduct.self, dataDirectory: data, masterKey: masterKey, scratch: try scratch("second"))
        #expect(differs.differences == ["tally"])
    }

    /// A projection stopped by an event it cannot apply stays behind while the others go on: verify
    /// compares at the others' position and names it (it asked to let them catch up, for ever).
    @Test func verifyNamesAProjectionStoppedBehindTheOthers() async throws {
        let directory = try TemporaryDirectory()
        let (data, masterKey) = (directory.url.appendingPathComponent("data"), try MasterKey.demo(file: directory.url.appendingPathComponent("master-key")))
        try await Self.given(data, masterKey: masterKey, product: RefusingTallyProduct.self)
        let report = try await Verify.run(RefusingTallyProduct.self, dataDirectory: data, masterKey: masterKey, scratch: directory.url, attempts: 2)
        #expect(report.isIdentical && report.position == 4)
        #expect(report.stopped.count == 1 && report.stopped.first?.hasPrefix("tallies could not apply the event at position 2") == true, "\(report.stopped)")
    }

    @Test func aPastStateIsTheLogFoldedToThatPositionAndAnInstantFindsItsPosition() async throws {
        let directory = try TemporaryDirectory()
        let log = try EventLog(configuration: .init(directory: directory.url.appendingPathComponent("log"), initialMapSize: 4 << 20))
        defer { log.close() }
        let keys = try testKeyStore(in: directory)
        let store = EventStore<TallyCatalog>(log: log, personalData: keys)
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        for (index, (tally, user, amount)) in Self.counts.enumerated() {
            let event = try await store.newEvent(.counted(Counted(tally: tally, userId: user, amount: amount, note: nil)), recordedAt: start + Double(index) * 60)
            _ = try await log.append(to: "tally-\(tally)", expectedVersion: .any, events: [event])
        }
        #expect(try TimeTravel.position(atOrBefore: start + 90, in: log) == 2)
        #expect(try TimeTravel.position(atOrBefore: start - 1, in: log) == 0)

        let past = try TimeTravel.readModels(
            TallyProduct.self, of: log, personalData: keys, upTo: 2, at: directory.url.appendingPathComponent("past.sqlite").path, logger: Logger(label: "test")
        )
        defer { try? past.close() }
        let rows = try past.read { try Row.fetchAll($0, sql: "SELECT name, total FROM tally ORDER BY name").map { "\($0[0] as String)=\($0[1] as Int)" } }
        #expect(rows == ["cups=2", "plates=1"])
    }
}
