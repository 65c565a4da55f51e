import EventSourcing
import Foundation
import HTTPTypes
import Logging
import NewsDomain
import NewsProjections
import ReadModels
import TestSupport
import Testing

/// An `X-User-ID` that sets preferences becomes a reader: their holdings and the id itself are sealed
/// in the log under the reader's key, and an operator's erasure destroys it, so that nothing of them
/// is served, folded again, or carried into the id's next reader.
@Suite struct ReaderErasureTests {
    static let token = "news-operator-secret-news-operator-secret"
    static let admin: HTTPFields = [HTTPField.Name("X-Admin-Token")!: token]
    static let user = "ana@example.com"

    @Test func anErasedReadersHoldingsAreGoneFromTheReadModelsAndEveryRefold() async throws {
        let storage = try await NewsStorage()
        let before = PreferencesUpdated(userId: Self.user, focusProfile: .broad, holdings: [Holding(ticker: "MSFT", notes: "old 1111")])
        _ = try await storage.stores.log.append(to: NewsStreams.preferences(Self.user), expectedVersion: .noStream, events: [
            try await storage.stores.store.newEvent(.preferencesUpdated(before)),
        ])
        try await NewsLiveServer.run(storage: storage, adminToken: Self.token) { server in
            let set = try await server.send(.put, "/v1/preferences", user: Self.user, json: #"{"holdings":[{"ticker":"AAPL","notes":"IRA 4417"}]}"#)
            #expect(set.status == .ok && set.json["focus_profile"] as? String == "broad", "the first reader starts from the id's clear preferences")
            let groups = try await server.send(.get, "/v1/feed/story-groups", user: Self.user)
            #expect(groups.json["user_holdings"] as? [String] == ["AAPL"], "\(groups.text)")
            let reader = try #require(try storage.commands.existingReader(Self.user))
            #expect(try await server.send(.put, "/v1/preferences", user: "bo@example.com", json: #"{"holdings":["NVDA"]}"#).status == .ok)
            let log = try Data(contentsOf: storage.stores.directory.log.appendingPathComponent("data.mdb"))
            for secret in ["IRA 4417", "bo@example.com"] { #expect(log.range(of: Data(secret.utf8)) == nil, "\(secret) is sealed") }

            let erased = try await server.send(.post, "/admin/users/\(reader)/erase", headers: Self.admin)
            #expect(erased.status == .ok && Set(erased.json.keys) == ["userId", "position"] && erased.json["userId"] as? Int == Int(reader), "\(erased.text)")
            #expect(try storage.queries.preferences(of: Self.user) == .none, "the clear preferences from before readers went too")
            #expect(try await server.send(.get, "/v1/feed/story-groups", user: Self.user).json["user_holdings"] as? [String] == [])
            #expect(try await server.send(.post, "/admin/users/\(reader)/erase", headers: Self.admin).status == .conflict)
            #expect(try storage.commands.existingReader(Self.user) == nil)

            let again = try await server.send(.put, "/v1/preferences", user: Self.user, json: #"{"focus_profile":"focused"}"#)
            #expect(again.status == .ok && again.json["holdings_count"] as? Int == 0, "a new reader, with nothing of the erased one's")
            #expect(try storage.commands.existingReader(Self.user).map { $0 > reader } == true)
        }
        let refolded = try ReadDatabase(path: storage.temporary.url.appendingPathComponent("refold.sqlite").path, projections: NewsReadModels.all)
        defer { try? refolded.close() }
        try NewsRunner(
            log: storage.stores.log, personalData: storage.stores.personalData, database: refolded, projections: NewsReadModels.all, logger: Logger(label: "test")
        ).catchUp()
        let refoldedPreferences = try NewsQueries(database: refolded).preferences(of: Self.user)
        #expect(refoldedPreferences.focusProfile == .focused && refoldedPreferences.holdings == [])
        let rows = try refolded.read {
            try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM newsPreferences WHERE identity = ?", arguments: [Readers.identity(Self.user).stream])
        }
        #expect(rows == 1, "only the new reader's change: neither the erased reader's nor the id's clear ones")
    }

    /// An erasure recorded after the id's next reader began (a resumed erasure, or one racing that
    /// reader's first change) removes the erased reader's rows and not the next one's.
    @Test func anErasureRecordedAfterTheIdsNextReaderBeganLeavesThatReadersRows() async throws {
        let storage = try await NewsStorage(demo: false)
        let identity = Readers.identity(Self.user).stream
        let events: [(String, NewsEvent)] = [
            (NewsStreams.preferences(Self.user), .preferencesUpdated(PreferencesUpdated(userId: Self.user, focusProfile: .broad, holdings: [Holding(ticker: "XOM")]))),
            (identity, .readerClaimed(ReaderClaimed(subject: Self.user, userId: 1))),
            (NewsStreams.user(1), .preferencesSet(PreferencesSet(userId: 1, focusProfile: .broad, holdings: [Holding(ticker: "MSFT")]))),
            (identity, .readerClaimed(ReaderClaimed(subject: Self.user, userId: 2))),
            (NewsStreams.user(2), .preferencesSet(PreferencesSet(userId: 2, focusProfile: .focused, holdings: [Holding(ticker: "NVDA")]))),
            (NewsStreams.user(1), .userErased(UserErased(userId: 1, initiator: .operator))),
        ]
        for (stream, event) in events {
            _ = try await storage.stores.log.append(to: stream, expectedVersion: .any, events: [try await storage.stores.store.newEvent(event)])
        }
        try storage.runner.catchUp()
        let now = try storage.queries.preferences(of: Self.user)
        #expect(now.focusProfile == .focused && now.holdings == [Holding(ticker: "NVDA")])
        let rows = try storage.stores.readDatabase.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM newsPreferences") }
        #expect(rows == 1, "the first reader's rows, those from before readers included, are gone")
    }
}
