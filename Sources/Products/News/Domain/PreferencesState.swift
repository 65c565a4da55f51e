import EventSourcing

/// A user's preferences as their stream leaves them: `balanced` and no holdings until they set some.
/// The same fold reads a reader's stream and the clear preferences an `X-User-ID` had before readers.
public struct PreferencesState: EventFold, Equatable {
    public typealias Event = NewsEvent
    public private(set) var focusProfile = FocusProfile.balanced
    public private(set) var holdings: [Holding] = []
    /// Whether the stream has set any.
    public private(set) var isSet = false

    public init() {}

    public var retainedBytes: Int {
        holdings.reduce(MemoryLayout<Self>.size) { bytes, holding in
            bytes + MemoryLayout<Holding>.size + heapBytes(of: [holding.ticker] + [holding.label, holding.notes].compactMap { $0 })
        }
    }

    public mutating func evolve(_ event: NewsEvent) {
        switch event {
        case .preferencesUpdated(let updated):
            (focusProfile, holdings, isSet) = (updated.focusProfile, updated.holdings, true)
        case .preferencesSet(let set):
            (focusProfile, holdings, isSet) = (set.focusProfile, set.holdings ?? [], true)
        case .articleIngested, .readerClaimed, .readerRegistered, .userErased:
            break
        }
    }
}
