import NewsCommands
import NewsDomain
import TestSupport
import Testing

/// News' decisions read as given these events, when this command, then these events.
@Suite struct NewsScenarioTests {
    typealias Scenario = CommandScenario<NewsCatalog, NewsCommandService>

    @Test func givenNothingWhenAnXUserIdSetsPreferencesThenItBecomesAReaderWhoseChangesAreRecordedOnce() async throws {
        let scenario = try Scenario { NewsCommandService(store: $0) }
        #expect(try await scenario.when { _ = try await $0.setPreferences(of: "ana", focus: .balanced, holdings: nil) } == [], "what everyone starts with")
        #expect(try await scenario.when { _ = try await $0.setPreferences(of: "ana", focus: .focused, holdings: [Holding(ticker: "nvda")]) } == [
            .readerClaimed(ReaderClaimed(subject: "ana", userId: 1)), .readerRegistered(ReaderRegistered(userId: 1)),
            .preferencesSet(PreferencesSet(userId: 1, focusProfile: .focused, holdings: [Holding(ticker: "NVDA")])),
        ])
        #expect(try await scenario.when { _ = try await $0.setPreferences(of: "ana", focus: .focused, holdings: [Holding(ticker: "NVDA")]) } == [])
        #expect(try await scenario.when { _ = try await $0.setPreferences(of: "ana", focus: nil, holdings: [Holding(ticker: "AAPL")]) } == [
            .preferencesSet(PreferencesSet(userId: 1, focusProfile: .focused, holdings: [Holding(ticker: "AAPL")])),
        ])
        #expect(try await scenario.when { _ = try await $0.setPreferences(of: "bo", focus: .broad, holdings: nil) }.prefix(2) == [
            .readerClaimed(ReaderClaimed(subject: "bo", userId: 2)), .readerRegistered(ReaderRegistered(userId: 2)),
        ])
        #expect(try scenario.commands.existingReader("ana") == 1 && scenario.commands.existingReader("cy") == nil)
    }

    /// Preferences an `X-User-ID` set in clear before readers are where its first change as a reader
    /// starts; setting them again as they are records only the reader.
    @Test func givenClearPreferencesFromBeforeReadersWhenTheXUserIdChangesPartOfThemThenTheRestIsKept() async throws {
        let scenario = try Scenario { NewsCommandService(store: $0) }
        let held = PreferencesUpdated(userId: "ana", focusProfile: .focused, holdings: [Holding(ticker: "NVDA", notes: "since 2020")])
        try await scenario.given([(NewsStreams.preferences("ana"), .preferencesUpdated(held))])
        #expect(try await scenario.when { _ = try await $0.setPreferences(of: "ana", focus: .focused, holdings: nil) } == [
            .readerClaimed(ReaderClaimed(subject: "ana", userId: 1)), .readerRegistered(ReaderRegistered(userId: 1)),
        ])
        #expect(try await scenario.when { _ = try await $0.setPreferences(of: "ana", focus: .broad, holdings: nil) } == [
            .preferencesSet(PreferencesSet(userId: 1, focusProfile: .broad, holdings: held.holdings)),
        ])
    }

    /// What a change leaves out is kept as the stream stands when its append is decided: two changes
    /// at once, one to the focus and one to the holdings, each keep the other's.
    @Test func givenPreferencesWhenTwoPartialChangesRaceThenBothHold() async throws {
        let scenario = try Scenario { NewsCommandService(store: $0) }
        let service = scenario.commands
        for round in 0..<10 {
            let focus: FocusProfile = round % 2 == 0 ? .broad : .focused
            let holdings = [Holding(ticker: round % 2 == 0 ? "MSFT" : "NVDA")]
            async let first = service.setPreferences(of: "ana", focus: focus, holdings: nil)
            async let second = service.setPreferences(of: "ana", focus: nil, holdings: holdings)
            _ = try await (first, second)
            let now = try await service.setPreferences(of: "ana", focus: nil, holdings: nil).preferences
            #expect(now.focusProfile == focus && now.holdings == holdings, "round \(round): \(now)")
        }
    }

    @Test func givenNothingWhenAHoldingIsNoTickerThenItIsRefused() async throws {
        let scenario = try Scenario { NewsCommandService(store: $0) }
        try await scenario.whenRefused(NewsRules.Refusal.invalidTicker("NOT A TICKER")) {
            _ = try await $0.setPreferences(of: "ana", focus: .balanced, holdings: [Holding(ticker: "NOT A TICKER")])
        }
    }
}
