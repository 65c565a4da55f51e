import Synchronization

/// Streams that commands have read, kept decoded, so the next command on a stream decodes only the
/// events appended since. A recorded event never changes, so a kept prefix of a stream plus the
/// events after it, read from the log, is the stream.
///
/// Decoding was a fifth of the CPU of Nuvie's `POST /movies/{id}/rate` under load: each rating folds
/// its `rating-{user}-{movie}` stream, and re-ratings make those streams longer (BENCHMARKS.md).
final class DecodedStreams<Event: Sendable & Equatable>: Sendable {
    private struct Entry {
        var events: [Recorded<Event>]
        var lastUsed: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var keptEvents = 0
        var clock: UInt64 = 0
    }

    private let state = Mutex(State())
    private let maximumStreams: Int
    private let maximumEvents: Int

    init(maximumStreams: Int = 2_048, maximumEvents: Int = 20_000) {
        self.maximumStreams = maximumStreams
        self.maximumEvents = maximumEvents
    }

    /// The stream's events as kept, possibly fewer than the log now holds.
    func prefix(of streamId: String) -> [Recorded<Event>] {
        state.withLock { state in
            state.clock += 1
            guard var entry = state.entries[streamId] else { return [] }
            entry.lastUsed = state.clock
            state.entries[streamId] = entry
            return entry.events
        }
    }

    /// Keeps `events`, the whole stream as just read, in place of a shorter prefix.
    func keep(_ events: [Recorded<Event>], of streamId: String) {
        guard events.count <= maximumEvents / 10 else { return }
        state.withLock { state in
            state.clock += 1
            let previous = state.entries.updateValue(Entry(events: events, lastUsed: state.clock), forKey: streamId)
            state.keptEvents += events.count - (previous?.events.count ?? 0)
            guard state.entries.count > maximumStreams || state.keptEvents > maximumEvents else { return }
            // Forget the least recently used quarter at once, so eviction costs little per stream kept.
            let oldest = state.entries.sorted { $0.value.lastUsed < $1.value.lastUsed }.prefix(state.entries.count / 4 + 1)
            for (stream, entry) in oldest {
                state.entries[stream] = nil
                state.keptEvents -= entry.events.count
            }
        }
    }
}
