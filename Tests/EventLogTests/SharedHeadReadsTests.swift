import NIOConcurrencyHelpers
import Testing
@testable import EventLog

/// Every node asks its shared log's server where the log is for each token it does not know: those
/// asks share one query at a time, and still each gets a head read after it asked.
struct SharedHeadReadsTests {
    /// A server whose head is the number of reads begun so far; each read takes a while.
    final class CountingServer: Sendable {
        let reads = NIOLockedValueBox(0)

        func head() async throws -> UInt64 {
            let number = reads.withLockedValue { reads in
                reads += 1
                return reads
            }
            try await Task.sleep(for: .milliseconds(50))
            return UInt64(number)
        }
    }

    @Test func manyCallersAtOnceShareAtMostTwoReads() async throws {
        let server = CountingServer()
        let reads = SharedHeadReads(server.head)
        let heads = try await withThrowingTaskGroup(of: UInt64.self) { group in
            for _ in 0..<200 { group.addTask { try await reads.current() } }
            return try await group.reduce(into: [UInt64]()) { $0.append($1) }
        }
        #expect(heads.count == 200)
        // The first read, and one more for every caller that asked while it was in flight.
        #expect(server.reads.withLockedValue { $0 } <= 2, "\(server.reads.withLockedValue { $0 }) reads")
    }

    @Test func aCallerWhoAsksDuringAReadGetsTheNextOne() async throws {
        let server = CountingServer()
        let reads = SharedHeadReads(server.head)
        let first = Task { try await reads.current() }
        while server.reads.withLockedValue({ $0 }) == 0 { await Task.yield() }
        // The first read has begun: what it returns may predate this caller's question.
        #expect(try await reads.current() == 2)
        #expect(try await first.value == 1)
        #expect(try await reads.current() == 3, "a caller after every read has ended starts a new one")
    }

    @Test func aFailedReadFailsItsCallersOnlyAndTheNextIsTried() async throws {
        let failing = NIOLockedValueBox(true)
        let reads = SharedHeadReads {
            if failing.withLockedValue({ $0 }) { throw SharedLogUnreachable(reason: "down", outcomeUnknown: false) }
            return 7
        }
        await #expect(throws: SharedLogUnreachable.self) { try await reads.current() }
        failing.withLockedValue { $0 = false }
        #expect(try await reads.current() == 7)
    }
}
