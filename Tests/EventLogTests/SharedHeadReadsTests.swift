import NIOConcurrencyHelpers
import Testing
@testable import EventLog

/// Every node asks its shared log's server where the log is for each token it does not know: those
/// asks share one query at a time, and still each gets a head read after it asked.
struct SharedHeadReadsTests {
    /// A server whose head is the number of reads begun so far. Reads wait while `held`; the first
    /// fails when `firstFails`.
    final class CountingServer: Sendable {
        let begun = NIOLockedValueBox(0)
        let inFlight = NIOLockedValueBox((now: 0, most: 0))
        let held = NIOLockedValueBox(true)
        let firstFails: Bool

        init(firstFails: Bool = false) {
            self.firstFails = firstFails
        }

        func head() async throws -> UInt64 {
            let number = begun.withLockedValue { begun in
                begun += 1
                return begun
            }
            inFlight.withLockedValue { $0 = (now: $0.now + 1, most: max($0.most, $0.now + 1)) }
            defer { inFlight.withLockedValue { $0.now -= 1 } }
            while held.withLockedValue({ $0 }) { try await Task.sleep(for: .milliseconds(1)) }
            if firstFails && number == 1 { throw SharedLogUnreachable(reason: "down", outcomeUnknown: false) }
            return UInt64(number)
        }

        var reads: Int { begun.withLockedValue { $0 } }
    }

    /// While a first read is held, 199 more callers ask: none may be answered by the first (it began
    /// before they asked), only one read is ever in flight, and they share what follows it.
    static func callersDuringAHeldRead(_ server: CountingServer) async throws -> (first: Task<UInt64, any Error>, during: [(asked: Int, head: UInt64)]) {
        let reads = SharedHeadReads()
        let first = Task { try await reads.current(server.head) }
        while server.reads == 0 { try await Task.sleep(for: .milliseconds(1)) }
        let asked = NIOLockedValueBox(0)
        let callers = (0..<199).map { _ in
            Task { () -> (asked: Int, head: UInt64) in
                let before = server.reads
                asked.withLockedValue { $0 += 1 }
                return (before, try await reads.current(server.head))
            }
        }
        while asked.withLockedValue({ $0 }) < callers.count { try await Task.sleep(for: .milliseconds(1)) }
        server.held.withLockedValue { $0 = false }
        var during: [(asked: Int, head: UInt64)] = []
        for caller in callers { during.append(try await caller.value) }
        #expect(try await reads.current(server.head) == UInt64(server.reads), "a caller after every read has ended starts a new one")
        return (first, during)
    }

    @Test func callersAtOnceShareOneReadInFlightEachBegunAfterTheyAsked() async throws {
        let server = CountingServer()
        let (first, during) = try await Self.callersDuringAHeldRead(server)
        #expect(try await first.value == 1)
        for (asked, head) in during { #expect(head > UInt64(asked), "asked after \(asked) reads had begun, answered by read \(head)") }
        #expect(server.inFlight.withLockedValue { $0.most } == 1)
        // The first read, the one every caller waiting behind it shares, and the last caller's own
        // (a caller that had not reached the actor when the second began would make one more).
        #expect(server.reads <= 4, "\(server.reads) reads for 201 callers")
    }

    /// Two callers asking while a read is held: one begins the next read, the other joins it. Both,
    /// cancelled, stop waiting at once; the held read still answers its own caller.
    @Test func callersCancelledWhileAReadIsHeldStopWaitingWhileTheOthersGetTheirHead() async throws {
        let server = CountingServer()
        let reads = SharedHeadReads()
        let holder = Task { try await reads.current(server.head) }
        while server.reads == 0 { try await Task.sleep(for: .milliseconds(1)) }
        let ended = NIOLockedValueBox(0)
        let cancelled = (0..<2).map { _ in
            Task {
                defer { ended.withLockedValue { $0 += 1 } }
                return try await reads.current(server.head)
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        for caller in cancelled { caller.cancel() }
        let giveUp = ContinuousClock.now + .seconds(10)
        while ended.withLockedValue({ $0 }) < 2, ContinuousClock.now < giveUp { try await Task.sleep(for: .milliseconds(1)) }
        #expect(ended.withLockedValue { $0 } == 2, "a cancelled caller still waits for the held read")
        #expect(server.held.withLockedValue { $0 })
        server.held.withLockedValue { $0 = false }
        for caller in cancelled { await #expect(throws: CancellationError.self) { try await caller.value } }
        #expect(try await holder.value == 1)
        #expect(try await reads.current(server.head) >= 2)
    }

    @Test func aFailedReadFailsOnlyTheCallersWhoShareIt() async throws {
        let server = CountingServer(firstFails: true)
        let (first, during) = try await Self.callersDuringAHeldRead(server)
        await #expect(throws: SharedLogUnreachable.self) { try await first.value }
        #expect(during.allSatisfy { $0.head >= 2 })
    }
}
