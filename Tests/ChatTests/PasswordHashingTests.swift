import ChatCommands
import Dispatch
import NIOConcurrencyHelpers
import Testing

/// New password hashes (signups) take only the hashing places not kept for checking passwords:
/// however many signups arrive at once, a login is still admitted.
@Suite(.timeLimit(.minutes(1)))
struct PasswordHashingTests {
    @Test func signupsAtOnceLeavePlacesForLogins() async throws {
        // Four threads and no queue: every admitted hash runs at once, so each is seen to start.
        let hashing = PasswordHashing(threads: 4, waiting: 0)
        let gate = DispatchSemaphore(value: 0)
        let running = NIOLockedValueBox(0), refused = NIOLockedValueBox(0)
        @Sendable func hash(_ purpose: PasswordHashing.Purpose) async {
            do {
                try await hashing.run(purpose) {
                    running.withLockedValue { $0 += 1 }
                    gate.wait()
                }
            } catch {
                refused.withLockedValue { $0 += 1 }
            }
        }
        let signups = (0..<4).map { _ in Task { await hash(.newHash) } }
        while running.withLockedValue({ $0 }) + refused.withLockedValue({ $0 }) < 4 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(running.withLockedValue { $0 } == 2 && refused.withLockedValue { $0 } == 2, "signups took every place")

        let login = Task { await hash(.check) }
        while running.withLockedValue({ $0 }) + refused.withLockedValue({ $0 }) < 5 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(running.withLockedValue { $0 } == 3, "the login was refused")
        for _ in 0..<running.withLockedValue({ $0 }) { gate.signal() }
        for task in signups + [login] { await task.value }
    }
}
