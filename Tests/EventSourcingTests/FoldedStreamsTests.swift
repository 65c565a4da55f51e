@testable import EventSourcing
import Testing

/// A state that grows with its stream, as a chat session's conversation does.
private struct Transcript: EventFold, Equatable {
    typealias Event = String
    var lines: [String] = []
    mutating func evolve(_ line: String) { lines.append(line) }
    var retainedBytes: Int { heapBytes(of: lines) }
}

@Test func keptStatesAreBoundedByTheBytesTheyHoldNotOnlyByTheirCount() {
    let streams = FoldedStreams(maximumStreams: 1_000, maximumBytes: 100_000)
    let heavy = Transcript.fold(Array(repeating: String(repeating: "x", count: 1_000), count: 10))
    for index in 0..<50 { streams.keep(heavy, version: 10, of: "session-\(index)", keyDestructions: 0) }
    let kept = (0..<50).filter { streams.state(Transcript.self, of: "session-\($0)", keyDestructions: 0) != nil }
    // About 10.4 KB each, its name included: 9 fit in 100,000 bytes, and they are the newest.
    #expect(kept == Array(41..<50))
    streams.keep(Transcript(), version: 0, of: "light", keyDestructions: 0)
    #expect(streams.state(Transcript.self, of: "light", keyDestructions: 0)?.state == Transcript())
}

@Test func everyKeptStateIsDroppedOnceKeysWereDestroyedAndNoneFoldedBeforeIsKeptAfter() {
    let streams = FoldedStreams()
    streams.keep(Transcript(lines: ["mine"]), version: 1, of: "a", keyDestructions: 0)
    streams.keep(Transcript(lines: ["theirs"]), version: 1, of: "b", keyDestructions: 0)
    #expect(streams.state(Transcript.self, of: "a", keyDestructions: 1) == nil)
    #expect(streams.state(Transcript.self, of: "b", keyDestructions: 1) == nil)
    // Folded from values opened before the destruction, finished after it: not kept.
    streams.keep(Transcript(lines: ["mine"]), version: 1, of: "a", keyDestructions: 0)
    #expect(streams.state(Transcript.self, of: "a", keyDestructions: 1) == nil)
    streams.keep(Transcript(lines: ["opened since"]), version: 1, of: "a", keyDestructions: 1)
    #expect(streams.state(Transcript.self, of: "a", keyDestructions: 1)?.state.lines == ["opened since"])
    // A reader that read the count before the last destruction finds nothing, and drops nothing.
    #expect(streams.state(Transcript.self, of: "a", keyDestructions: 0) == nil)
    #expect(streams.state(Transcript.self, of: "a", keyDestructions: 1) != nil)
}

/// Told of a destruction, every kept state goes at once, not at the next read: a decision folded
/// from values opened before it, finishing after, keeps nothing.
@Test func aDestructionDropsEveryKeptStateAtOnce() {
    let streams = FoldedStreams()
    streams.keep(Transcript(lines: ["mine"]), version: 1, of: "a", keyDestructions: 0)
    streams.keysDestroyed(1)
    #expect(streams.state(Transcript.self, of: "a", keyDestructions: 0) == nil)
    streams.keep(Transcript(lines: ["mine"]), version: 1, of: "a", keyDestructions: 0)
    #expect(streams.state(Transcript.self, of: "a", keyDestructions: 1) == nil)
}
