import EventLog
import EventSourcing
import Foundation
import PersonalData
import Synchronization
import TestSupport
import Testing

/// The event store on a real LMDB log and key store, with the engine's test product (`TallyCatalog`):
/// given these events, when this decision, then these events.
final class TallyStore: Sendable {
    let directory: TemporaryDirectory
    let log: EventLog
    let keys: KeyStoreCipher
    let store: EventStore<TallyCatalog>

    init() throws {
        directory = try TemporaryDirectory()
        log = try EventLog(configuration: .init(directory: directory.url.appendingPathComponent("log"), initialMapSize: 4 << 20))
        keys = try testKeyStore(in: directory)
        store = EventStore(log: log, personalData: keys)
    }

    deinit {
        log.close()
        try? keys.keys.close()
    }

    /// Adds `amount` to `tally` when the total stays at most `limit`: a decision on the tally's stream.
    func count(_ tally: String, by amount: Int, user: Int64 = 1, note: String? = nil, limit: Int = .max, eventId: UUID = .timeOrdered()) async throws -> CommandResult {
        try await store.decideAndAppend("tally-\(tally)", as: TallyState.self, eventId: eventId) { state in
            state.total + amount > limit ? [] : [.counted(Counted(tally: tally, userId: user, amount: amount, note: note))]
        }
    }

    func events(of tally: String) throws -> [TallyEvent] {
        try store.readStream("tally-\(tally)").events.map(\.event)
    }
}

/// The key store's cipher, counting what it opens.
final class OpenCounting: PersonalDataCipher {
    private let cipher: KeyStoreCipher
    private let opened = Mutex(0)

    init(_ cipher: KeyStoreCipher) {
        self.cipher = cipher
    }

    var count: Int { opened.withLock { $0 } }

    func seal(_ value: String, owner: Int64, field: String) throws -> String {
        try cipher.seal(value, owner: owner, field: field)
    }

    func open(_ stored: String, owner: Int64, field: String) throws -> String? {
        opened.withLock { $0 += 1 }
        return try cipher.open(stored, owner: owner, field: field)
    }

    var keyDestructions: UInt64 { cipher.keyDestructions }

    func onKeysDestroyed(_ action: @escaping @Sendable (UInt64) -> Void) {
        cipher.onKeysDestroyed(action)
    }
}

@Suite struct EventStoreTests {
    @Test func aDecisionAppendsWhatItDecidesAndAnEmptyDecisionAppendsNothing() async throws {
        let tallies = try TallyStore()
        let first = try await tallies.count("cups", by: 2, limit: 3)
        let refused = try await tallies.count("cups", by: 2, limit: 3)
        #expect(first.position == 1 && refused.position == 1)
        #expect(try tallies.events(of: "cups") == [.counted(Counted(tally: "cups", userId: 1, amount: 2, note: nil))])
        #expect(try tallies.store.state(of: "tally-cups", as: TallyState.self).state.total == 2)
    }

    @Test func aRetryUnderTheSameIdRecordsNothingAndADifferentDecisionUnderItIsRefused() async throws {
        let tallies = try TallyStore()
        let id = TallyCatalog.derivedEventId(from: "request:1:cups:k")
        _ = try await tallies.count("cups", by: 1, eventId: id)
        _ = try await tallies.count("cups", by: 5)
        // The same request again is decided against the stream as it stood before it: the same event.
        let retried = try await tallies.count("cups", by: 1, eventId: id)
        #expect(retried.position == 1 && tallies.log.headPosition == 2)
        await #expect(throws: EventLogError.eventIdReused(eventId: id, position: 1)) {
            _ = try await tallies.count("cups", by: 3, eventId: id)
        }
        #expect(try tallies.store.state(of: "tally-cups", as: TallyState.self).state.total == 6)
    }

    @Test func decisionsOnOneStreamTakeTurnsAndNoneIsLost() async throws {
        let tallies = try TallyStore()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for user in 1...20 { group.addTask { _ = try await tallies.count("cups", by: 1, user: Int64(user), limit: 15) } }
            try await group.waitForAll()
        }
        #expect(try tallies.events(of: "cups").count == 15)
        #expect(try tallies.store.readStream("tally-cups").version == 15)
    }

    @Test func aPersonalFieldIsSealedInTheLogAndReadsAsAbsentOnceItsOwnerIsErased() async throws {
        let tallies = try TallyStore()
        _ = try await tallies.count("cups", by: 1, user: 7, note: "my secret tea habit")
        let stored = try #require(try tallies.log.event(at: 1))
        #expect(!String(decoding: stored.payload, as: UTF8.self).contains("secret"))
        #expect(try tallies.store.state(of: "tally-cups", as: TallyState.self).state.notes == ["my secret tea habit"])

        // Destroyed in the key store alone, with no erasure to forget anything: the state the
        // decision kept, with the note opened, is dropped all the same.
        try tallies.keys.keys.destroy(7)
        #expect(try tallies.store.state(of: "tally-cups", as: TallyState.self).state.notes == [])
        #expect(try tallies.events(of: "cups") == [.counted(Counted(tally: "cups", userId: 7, amount: 1, note: nil))])
    }

    /// What a decision leaves is kept as decided, not read back from the log: the next decision on
    /// the stream opens nothing.
    @Test func theStateADecisionLeavesIsKeptWithoutFoldingItsEventsAgain() async throws {
        let tallies = try TallyStore()
        let opens = OpenCounting(tallies.keys)
        let store = EventStore<TallyCatalog>(log: tallies.log, personalData: opens)
        for note in ["first", "second"] {
            _ = try await store.decideAndAppend("tally-cups", as: TallyState.self, eventId: .timeOrdered()) { _ in
                [.counted(Counted(tally: "cups", userId: 7, amount: 1, note: note))]
            }
        }
        let kept = try store.state(of: "tally-cups", as: TallyState.self)
        #expect(kept.version == 2 && kept.state.total == 2 && kept.state.notes == ["first", "second"])
        #expect(opens.count == 0)
        #expect(try tallies.store.state(of: "tally-cups", as: TallyState.self).state.notes == ["first", "second"])
    }

    @Test func aReadOnlyLogRefusesADecisionBeforeAnyKeyIsCreated() async throws {
        let tallies = try TallyStore()
        // An empty log created, then opened read-only, as a past state's copy is served.
        try EventLog(configuration: .init(directory: tallies.directory.url.appendingPathComponent("log-past"))).close()
        let past = try EventLog(configuration: .init(directory: tallies.directory.url.appendingPathComponent("log-past"), readOnly: true))
        defer { past.close() }
        let store = EventStore<TallyCatalog>(log: past, personalData: tallies.keys)
        await #expect(throws: EventLogError.readOnly) {
            _ = try await store.decideAndAppend("tally-cups", as: TallyState.self, eventId: .timeOrdered()) { _ in
                [.counted(Counted(tally: "cups", userId: 9, amount: 1, note: "never sealed"))]
            }
        }
        #expect(try tallies.keys.keys.key(for: 9, creating: false) == nil, "a key was created for an event the log refused")
    }

    @Test func anOlderSchemaVersionIsReadAsTheCurrentCase() async throws {
        let tallies = try TallyStore()
        let v1 = NewEvent(type: "counted", schemaVersion: 1, actorUserId: 3, payload: Data(#"{"tally":"cups","userId":3}"#.utf8))
        _ = try await tallies.log.append(to: "tally-cups", expectedVersion: .noStream, events: [v1])
        #expect(try tallies.events(of: "cups") == [.counted(Counted(tally: "cups", userId: 3, amount: 1, note: nil))])
        _ = try await tallies.count("cups", by: 2)
        #expect(try tallies.log.event(at: 2)?.schemaVersion == 2)
        #expect(try tallies.store.state(of: "tally-cups", as: TallyState.self).state.total == 3)
    }

    @Test func theCatalogIsWholeAndRefusesWhatItDoesNotKnow() throws {
        let samples: [TallyEvent] = [
            .counted(Counted(tally: "cups", userId: 1, amount: 2, note: "n")),
            .userErased(UserErased(userId: 1, initiator: .operator)),
        ]
        let caseName = { (event: TallyEvent) -> String in
            switch event {
            case .counted: "counted"
            case .userErased: "userErased"
            }
        }
        let keys = try testKeyStore(in: try TemporaryDirectory())
        #expect(try CatalogCheck.problems(TallyCatalog.self, samples: samples, caseName: caseName, cipher: keys) == [])
        #expect(throws: PayloadCatalogFailure.unknownType("counted", schemaVersion: 9)) {
            try TallyCatalog.decode(type: "counted", schemaVersion: 9, payload: Data("{}".utf8), with: JSONDecoder())
        }
    }
}
