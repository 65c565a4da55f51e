/// What a decision knows of one stream: its events folded in order, `(state, event) → state`.
/// The event store keeps each stream's state folded (`FoldedStreams`; after a decision, as it left
/// it), so a decision folds only the events others appended since, however long the stream has grown.
public protocol StreamState: Sendable {
    associatedtype Event: Sendable & Equatable
    /// The state of a stream with no events.
    init()
    mutating func evolve(_ recorded: Recorded<Event>)
    /// About how many bytes this state holds: what it costs to keep between decisions, where
    /// `FoldedStreams` bounds the bytes of all kept states. The default, the value's inline size, is
    /// right for a state without strings or collections that grow; a state with them counts them.
    var retainedBytes: Int { get }
}

extension StreamState {
    public var retainedBytes: Int { MemoryLayout<Self>.size }
}

/// The bytes a string costs on the heap, for `StreamState.retainedBytes`: its UTF-8 and an
/// allocation's header. Short strings are stored inline and cost less; this errs high.
public func heapBytes(of texts: some Sequence<String>) -> Int {
    texts.reduce(0) { $0 + 32 + $1.utf8.count }
}

extension StreamState {
    public static func fold(_ events: some Sequence<Recorded<Event>>) -> Self {
        var state = Self()
        for recorded in events { state.evolve(recorded) }
        return state
    }
}

/// A stream state that needs only the events, not where the log recorded them.
public protocol EventFold: StreamState {
    mutating func evolve(_ event: Event)
}

extension EventFold {
    public mutating func evolve(_ recorded: Recorded<Event>) {
        evolve(recorded.event)
    }

    public static func fold(_ events: some Sequence<Event>) -> Self {
        var state = Self()
        for event in events { state.evolve(event) }
        return state
    }
}
