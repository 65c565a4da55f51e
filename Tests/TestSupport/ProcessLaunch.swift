import Foundation
import Synchronization

/// Starts child processes one at a time: Foundation's `Process.run()` on Linux crashed the test
/// process (a bad pointer in its memcpy) when two suites launched `nuvie` at the same instant.
public enum ProcessLaunch {
    private static let lock = Mutex(())

    public static func run(_ process: Process) throws {
        try lock.withLock { _ in try process.run() }
    }
}
