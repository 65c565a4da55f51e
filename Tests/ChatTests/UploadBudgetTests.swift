@testable import ChatAPI
import NIOConcurrencyHelpers
import Testing

/// Upload bodies held at once are bounded across requests: a request waits for room, and one that
/// finds none in time is refused without its body being read.
@Suite struct UploadBudgetTests {
    @Test func aRequestWaitsForRoomAndGetsItWhenTheHolderIsDone() async throws {
        let budget = UploadBudget(bytes: 100, wait: .seconds(30))
        let (released, release) = AsyncStream.makeStream(of: Void.self)
        let (held, holding) = AsyncStream.makeStream(of: Void.self)
        let first = Task {
            try await budget.holding(80) {
                holding.yield()
                for await _ in released { break }
            }
        }
        for await _ in held { break }
        let secondDone = NIOLockedValueBox(false)
        let second = Task {
            try await budget.holding(50) { secondDone.withLockedValue { $0 = true } }
        }
        try await Task.sleep(for: .milliseconds(200))
        #expect(secondDone.withLockedValue { $0 } == false, "ran while 80 of 100 bytes were held")
        release.yield()
        try await first.value
        try await second.value
        #expect(secondDone.withLockedValue { $0 })
        #expect(budget.bytesInUse == 0)
    }

    @Test func aRequestThatFindsNoRoomInTimeIsRefusedAndARequestLargerThanTheBudgetTakesAllOfIt() async throws {
        let budget = UploadBudget(bytes: 100, wait: .milliseconds(50))
        let (released, release) = AsyncStream.makeStream(of: Void.self)
        let (held, holding) = AsyncStream.makeStream(of: Void.self)
        let first = Task {
            try await budget.holding(1_000) {
                holding.yield()
                for await _ in released { break }
            }
        }
        for await _ in held { break }
        #expect(budget.bytesInUse == 100)
        await #expect(throws: UploadBudget.Exhausted.self) { try await budget.holding(1) {} }
        release.yield()
        try await first.value
        #expect(budget.bytesInUse == 0)
    }
}
