@testable import ChatAPI
import Testing

/// Attempts are counted before their password is checked, so parallel guesses cannot all pass; one
/// refused only because others are still being checked is told to retry in a second.
@Suite struct LoginThrottleTests {
    /// It holds no email and no address, only digests of them, and forgets a key once its attempts have
    /// all left the window (an erased user's email stayed in memory until 100,000 keys had piled up).
    @Test func itHoldsNoEmailOrAddressAndForgetsWhatLeftTheWindow() async throws {
        let throttle = LoginThrottle(.init(perAccount: 5, perAddress: 20, window: .milliseconds(300)))
        for name in ["ada", "bea", "cy"] {
            _ = try? await throttle.attempt(email: "\(name)@example.com", address: "10.0.0.7") { Int?.none }
        }
        #expect(throttle.heldKeys.count == 4)
        #expect(throttle.heldKeys.allSatisfy { !$0.contains("@") && !$0.contains("10.0.0.7") }, "\(throttle.heldKeys)")
        try await Task.sleep(for: .milliseconds(400))
        _ = try? await throttle.attempt(email: "dee@example.com", address: "10.0.0.8") { Int?.none }
        #expect(throttle.heldKeys.count == 2, "only the last attempt's account and address")
    }

    @Test func attemptsOverTheLimitWhileOthersAreCheckedAreToldToRetryShortly() async throws {
        let throttle = LoginThrottle(.init(perAccount: 2, perAddress: 100, window: .seconds(60)))
        let gates = (0..<2).map { _ in AsyncStream<Void>.makeStream() }
        let (starts, started) = AsyncStream<Void>.makeStream()
        let checking = Task {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for (gate, _) in gates {
                    group.addTask {
                        try await throttle.attempt(email: "ida@example.com", address: "10.0.0.1") {
                            started.yield()
                            for await _ in gate { break }
                            return 1
                        }
                    }
                }
                return try await group.reduce(0, +)
            }
        }
        var begun = 0
        for await _ in starts {
            begun += 1
            if begun == 2 { break }
        }
        do {
            _ = try await throttle.attempt(email: "ida@example.com", address: "10.0.0.1") { 1 }
            Issue.record("a third attempt passed while two were being checked")
        } catch let refused as ChatAPIError {
            #expect(refused.status == .tooManyRequests && refused.headers[.retryAfter] == "1", "\(refused)")
            #expect(refused.detail == "Too many logins at once for this account or from this address")
        }
        for (_, open) in gates { open.finish() }
        #expect(try await checking.value == 2)
        #expect(try await throttle.attempt(email: "ida@example.com", address: "10.0.0.1") { 1 } == 1)
    }

    @Test func failedAttemptsAtTheLimitWaitForTheWindow() async throws {
        let throttle = LoginThrottle(.init(perAccount: 2, perAddress: 100, window: .seconds(60)))
        for _ in 0..<2 {
            await #expect(throws: ChatAPIError.self) { try await throttle.attempt(email: "gus@example.com", address: nil) { Optional<Int>.none } }
        }
        do {
            _ = try await throttle.attempt(email: "gus@example.com", address: nil) { 1 }
            Issue.record("a third attempt passed")
        } catch let refused as ChatAPIError {
            #expect(Int(refused.headers[.retryAfter] ?? "") ?? 0 > 50 && refused.detail == "Too many failed logins for this account or from this address")
        }
    }

    /// The hashing threads busy (or the store failing), the password was never judged: a client that
    /// retries through it keeps its account's failures for real guesses.
    @Test func anAttemptThatCouldNotBeCheckedCountsForNothing() async throws {
        let throttle = LoginThrottle(.init(perAccount: 2, perAddress: 2, window: .seconds(60)))
        struct Busy: Error {}
        for _ in 0..<5 {
            await #expect(throws: Busy.self) { try await throttle.attempt(email: "kim@example.com", address: "10.0.0.2") { () async throws -> Int? in throw Busy() } }
        }
        await #expect(throws: ChatAPIError.self) { try await throttle.attempt(email: "kim@example.com", address: "10.0.0.2") { Optional<Int>.none } }
        #expect(try await throttle.attempt(email: "kim@example.com", address: "10.0.0.2") { 1 } == 1)
    }
}
