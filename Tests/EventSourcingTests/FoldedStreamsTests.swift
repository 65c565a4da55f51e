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
    for index in 0..<50 { streams.keep(heavy, version: 10, of: "session-\(index)", readBefore: 0) }
    let kept = (0..<50).filter { streams.state(Transcript.self, of: "session-\($0)").folded != nil }
    // About 10.4 KB each, its name included: 9 fit in 100,000 bytes, and they are the newest.
    #expect(kept == Array(41..<50))
    streams.keep(Transcript(), version: 0, of: "light", readBefore: 0)
    #expect(streams.state(Transcript.self, of: "light").folded?.state == Transcript())
}
