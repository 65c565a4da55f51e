import EventSourcing

/// A user's preferences as their stream leaves them: `balanced` and no holdings until they set some.
public struct PreferencesState: EventFold, Equatable {
    public typealias Event = NewsEvent
    public private(set) var focusProfile = FocusProfile.balanced
    public private(set) var holdings: [Holding] = []

    public init() {}

    public mutating func evolve(_ event: NewsEvent) {
        switch event {
        case .preferencesUpdated(let updated):
            focusProfile = updated.focusProfile
            holdings = updated.holdings
        case .articleIngested, .userErased:
            break
        }
    }
}
