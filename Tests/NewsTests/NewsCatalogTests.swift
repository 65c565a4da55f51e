import EventSourcing
import NewsDomain
import TestSupport
import Testing

/// Given one event of every case, then each reads back from its log form as itself.
@Suite struct NewsCatalogTests {
    static let samples: [NewsEvent] = [
        .articleIngested(ArticleIngested(
            url: "https://example.com/markets/nvda-guidance", title: "NVIDIA raises its outlook", source: "Example Wire",
            publishedAt: 1_767_225_600, description: "Data-centre demand lifts guidance.", body: nil, feed: "demo"
        )),
        .preferencesUpdated(PreferencesUpdated(
            userId: "7", focusProfile: .focused, holdings: [Holding(ticker: "NVDA", label: "core", notes: "long since 2020"), Holding(ticker: "AAPL")]
        )),
        .userErased(UserErased(userId: 7, initiator: .operator)),
    ]

    /// Fails to compile when a case is added, so that a sample of it is added above.
    static func caseName(_ event: NewsEvent) -> String {
        switch event {
        case .articleIngested: "articleIngested"
        case .preferencesUpdated: "preferencesUpdated"
        case .userErased: "userErased"
        }
    }

    @Test func everyCaseIsSampledAndReadsBackFromItsLogForm() throws {
        let cipher = try testKeyStore(in: try TemporaryDirectory())
        #expect(try CatalogCheck.problems(NewsCatalog.self, samples: Self.samples, caseName: Self.caseName, cipher: cipher) == [])
    }

    @Test func newsSealsNothingAndNamesNoActor() throws {
        for sample in Self.samples {
            #expect(NewsCatalog.actorUserId(of: sample) == nil && NewsCatalog.subjectUserIds(of: sample) == [])
        }
    }
}
