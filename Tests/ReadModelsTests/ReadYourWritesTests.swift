import EventLog
import Foundation
import Logging
import ReadModels
import TestSupport
import Testing

/// `ReadYourWrites.found` on a node whose read models are behind its shared log (here its runner is
/// not running, so they never catch up): it does not say "not found" when it cannot know.
@Suite(.enabled(if: TestPostgres.serverURL != nil, "needs ENGINE_TEST_POSTGRES_URL: scripts/postgres.sh run swift test"), .timeLimit(.minutes(2)))
struct ReadYourWritesTests {
    struct Node {
        let place: LogPlace
        let writer: EventLog
        let reader: EventLog
        let readYourWrites: ReadYourWrites
    }

    /// Node `writer` appends one event; node `reader`'s read models have folded nothing.
    static func nodeBehind(_ body: (Node) async throws -> Void) async throws {
        let place = try await LogPlace(.postgres)
        let writer = try await place.open("writer")
        let reader = try await place.open("reader")
        defer { writer.close(); reader.close() }
        let keys = try testKeyStore(in: place.directory)
        let projections: [any Projection<TallyEvent>] = [TallyProjection()]
        let database = try ReadDatabase(path: place.directory.url.appendingPathComponent("read.sqlite").path, projections: projections)
        let runner = try ProjectionRunner<TallyCatalog>(
            log: reader, personalData: keys, database: database, projections: projections, batchSize: 3, logger: Logger(label: "test")
        )
        _ = try await writer.append(to: "s", expectedVersion: .any, events: [NewEvent(type: "thing", payload: Data("{}".utf8))])
        try await body(Node(place: place, writer: writer, reader: reader, readYourWrites: ReadYourWrites(runner: runner, timeout: .milliseconds(200))))
    }

    @Test func whatIsStillMissingAfterTheTimeoutIsNotCaughtUpNotNil() async throws {
        try await Self.nodeBehind { node in
            await #expect(throws: NotCaughtUp(position: 1)) { try await node.readYourWrites.found { nil as Int? } }
            await #expect(throws: NotCaughtUp(position: 1)) { try await node.readYourWrites.holds { false } }
        }
    }

    @Test func whatIsFoundAfterTheTimeoutIsFound() async throws {
        try await Self.nodeBehind { node in
            var lookups = 0
            let found = try await node.readYourWrites.found { () -> Int? in
                lookups += 1
                return lookups == 2 ? 7 : nil
            }
            #expect(found == 7)
        }
    }
}
