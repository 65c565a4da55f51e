import EventSourcing
import Foundation
import NewsDomain
import PersonalData
import TestSupport
import Testing

/// Given one event of every case, then each reads back from its log form as itself; a reader's
/// holdings and `X-User-ID` are sealed under their key, and read as absent once it is destroyed.
@Suite struct NewsCatalogTests {
    static let holdings = [Holding(ticker: "NVDA", label: "core", notes: "long since 2020"), Holding(ticker: "AAPL")]
    static let samples: [NewsEvent] = [
        .articleIngested(ArticleIngested(
            url: "https://example.com/markets/nvda-guidance", title: "NVIDIA raises its outlook", source: "Example Wire",
            publishedAt: 1_767_225_600, description: "Data-centre demand lifts guidance.", body: nil, feed: "demo"
        )),
        .preferencesUpdated(PreferencesUpdated(userId: "7", focusProfile: .focused, holdings: holdings)),
        .readerClaimed(ReaderClaimed(subject: "ana@example.com", userId: 7)),
        .readerRegistered(ReaderRegistered(userId: 7)),
        .preferencesSet(PreferencesSet(userId: 7, focusProfile: .focused, holdings: holdings)),
        .userErased(UserErased(userId: 7, initiator: .operator)),
    ]

    /// Fails to compile when a case is added, so that a sample of it is added above.
    static func caseName(_ event: NewsEvent) -> String {
        switch event {
        case .articleIngested: "articleIngested"
        case .preferencesUpdated: "preferencesUpdated"
        case .readerClaimed: "readerClaimed"
        case .readerRegistered: "readerRegistered"
        case .preferencesSet: "preferencesSet"
        case .userErased: "userErased"
        }
    }

    @Test func everyCaseIsSampledAndReadsBackFromItsLogForm() throws {
        let cipher = try testKeyStore(in: try TemporaryDirectory())
        #expect(try CatalogCheck.problems(NewsCatalog.self, samples: Self.samples, caseName: Self.caseName, cipher: cipher) == [])
    }

    @Test func aReadersEventsAreTheirsAndAnOperatorsErasureConcernsThem() {
        #expect(Self.samples.map(NewsCatalog.actorUserId) == [nil, nil, 7, 7, 7, nil])
        #expect(Self.samples.map(NewsCatalog.subjectUserIds) == [[], [], [], [], [], [7]])
    }

    @Test func aReadersHoldingsAndIdAreSealedAndReadAsAbsentOnceTheirKeyIsDestroyed() throws {
        let directory = try TemporaryDirectory()
        let cipher = try testKeyStore(in: directory)
        func encoded(_ event: NewsEvent) throws -> EncodedEvent {
            try NewsCatalog.encode(event, with: cipher.encoder(owner: NewsCatalog.actorUserId(of: event)))
        }
        func decoded(_ event: EncodedEvent) throws -> NewsEvent {
            try NewsCatalog.decode(type: event.type, schemaVersion: event.schemaVersion, payload: event.payload, with: cipher.decoder(owner: 7))
        }
        let (claim, set) = (try encoded(Self.samples[2]), try encoded(Self.samples[4]))
        let logForm = String(decoding: claim.payload + set.payload, as: UTF8.self)
        for secret in ["ana@example.com", "NVDA", "long since 2020", "core"] { #expect(!logForm.contains(secret)) }
        #expect(logForm.contains(#""focusProfile":"focused""#))
        try cipher.keys.destroy(7)
        #expect(try decoded(claim) == .readerClaimed(ReaderClaimed(subject: nil, userId: 7)))
        #expect(try decoded(set) == .preferencesSet(PreferencesSet(userId: 7, focusProfile: .focused, holdings: nil)))
    }
}
