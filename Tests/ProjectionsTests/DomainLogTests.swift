@testable import NuvieCommands
@testable import EventSourcing
import NuvieDomain
import EventLog
import Foundation
import TestSupport
import Testing

/// Commands read their streams through `DomainLog`, which keeps decoded streams between reads.
@Suite(.timeLimit(.minutes(3))) struct DomainLogTests {
    private func rated(_ stars: Double, review: Bool = false, in store: DomainLog) throws -> NewEvent {
        try store.newEvent(.movieRated(MovieRated(userId: 1, movieId: 2, rating: stars, previousRating: nil, comment: nil, isReview: review)))
    }

    @Test func aStreamReadAgainIsTheStreamTheLogHolds() async throws {
        let directory = try TemporaryDirectory()
        let log = try EventLog(configuration: .init(directory: directory.url.appendingPathComponent("log"), initialMapSize: 1 << 20))
        defer { log.close() }
        let domain = DomainLog(log: log, personalData: try testKeyStore(in: directory))
        func fresh(_ stream: String) throws -> [Recorded<DomainEvent>] { try log.readStream(stream).map(domain.decode) }
        func rated(_ stars: Double, review: Bool = false) throws -> NewEvent { try self.rated(stars, review: review, in: domain) }

        _ = try await log.append(to: "rating-1-2", expectedVersion: .noStream, events: [try rated(3), try rated(4, review: true)])
        #expect(try domain.readStream("rating-1-2").events == fresh("rating-1-2"))
        _ = try await log.append(to: "other", expectedVersion: .any, events: [try rated(1)])
        _ = try await log.append(to: "rating-1-2", expectedVersion: .exact(2), events: [try rated(5)])
        let again = try domain.readStream("rating-1-2")
        #expect(again.events == (try fresh("rating-1-2")))
        #expect(again.version == 3 && again.events.map(\.streamVersion) == [1, 2, 3])
        #expect(RatingState.fold(again.events).rating == 5)
        #expect(try domain.readStream("missing").version == 0)
    }

    @Test func keptStreamsAreBoundedAndForgetTheLeastRecentlyUsed() throws {
        let kept = DecodedStreams<DomainEvent>(maximumStreams: 4, maximumEvents: 1_000)
        let event = Recorded(position: 1, eventId: UUID(), streamId: "s", streamVersion: 1, recordedAt: Date(), event: DomainEvent.movieRated(
            MovieRated(userId: 1, movieId: 2, rating: 3, previousRating: nil, comment: nil, isReview: false)
        ))
        for index in 0..<4 { kept.keep([event], of: "s\(index)", readBefore: 0) }
        _ = kept.prefix(of: "s0")
        kept.keep([event], of: "s4", readBefore: 0)
        #expect(kept.prefix(of: "s1").events.isEmpty && kept.prefix(of: "s2").events.count == 1)
        #expect(kept.prefix(of: "s0").events.count == 1 && kept.prefix(of: "s4").events.count == 1)
        kept.keep(Array(repeating: event, count: 101), of: "long", readBefore: 0)
        #expect(kept.prefix(of: "long").events.isEmpty)
    }

    /// A stream read before everything was forgotten (an erasure) is not kept after it.
    @Test func aStreamReadBeforeAForgetIsNotKeptAfterIt() {
        let kept = DecodedStreams<DomainEvent>()
        let event = Recorded(position: 1, eventId: UUID(), streamId: "s", streamVersion: 1, recordedAt: Date(), event: DomainEvent.movieRated(
            MovieRated(userId: 1, movieId: 2, rating: 3, previousRating: nil, comment: "before the erasure", isReview: true)
        ))
        let (_, forgotten) = kept.prefix(of: "s")
        kept.removeAll()
        kept.keep([event], of: "s", readBefore: forgotten)
        #expect(kept.prefix(of: "s").events.isEmpty)
        kept.keep([event], of: "s", readBefore: kept.prefix(of: "s").forgotten)
        #expect(kept.prefix(of: "s").events == [event])
    }
}
