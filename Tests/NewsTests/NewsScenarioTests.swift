import NewsCommands
import NewsDomain
import TestSupport
import Testing

/// News' decisions read as given these events, when this command, then these events.
@Suite struct NewsScenarioTests {
    typealias Scenario = CommandScenario<NewsCatalog, NewsCommandService>

    @Test func givenPreferencesWhenTheSameAreSetThenNothingIsRecordedAndNewOnesAre() async throws {
        let scenario = try Scenario { NewsCommandService(store: $0) }
        let held = PreferencesUpdated(userId: "ana", focusProfile: .focused, holdings: [Holding(ticker: "NVDA")])
        try await scenario.given([(NewsStreams.preferences("ana"), .preferencesUpdated(held))])
        #expect(try await scenario.when { _ = try await $0.setPreferences(of: "ana", focus: .focused, holdings: [Holding(ticker: "nvda")]) } == [])
        #expect(try await scenario.when { _ = try await $0.setPreferences(of: "ana", focus: .balanced, holdings: [Holding(ticker: "AAPL")]) } == [
            .preferencesUpdated(PreferencesUpdated(userId: "ana", focusProfile: .balanced, holdings: [Holding(ticker: "AAPL")])),
        ])
    }

    @Test func givenNothingWhenAHoldingIsNoTickerThenItIsRefused() async throws {
        let scenario = try Scenario { NewsCommandService(store: $0) }
        try await scenario.whenRefused(NewsRules.Refusal.invalidTicker("NOT A TICKER")) {
            _ = try await $0.setPreferences(of: "ana", focus: .balanced, holdings: [Holding(ticker: "NOT A TICKER")])
        }
    }
}
