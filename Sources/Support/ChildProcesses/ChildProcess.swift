import Foundation
import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#endif

/// A child process started with `posix_spawn`, its output appended to a file or sent where this
/// process's goes. The tests' and the benchmarks' stand-in for Foundation's `Process`, whose `run()`
/// on Linux reads past the end of a directory entry while listing `/proc/self/fd` and crashed the
/// test process now and then when many descriptors were open (swift-corelibs-foundation PR 5472;
/// not in Swift 6.3.1).
public final class ChildProcess: Sendable {
    public let pid: pid_t
    /// The wait status once the child has been reaped.
    private let exit = NIOLockedValueBox<Int32?>(nil)

    public struct SpawnFailed: Error, CustomStringConvertible {
        public var errno: Int32
        public var description: String { "posix_spawn failed: \(String(cString: strerror(errno)))" }
    }

    /// Starts `executable`. Its standard output and error are appended to `output`, or, when it is
    /// nil, go where this process's do; its standard input is empty.
    public init(executable: URL, arguments: [String], environment: [String: String], output: URL?) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let output {
            posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        // Nothing else of this process's (its servers' sockets, its logs' files) goes along.
        _ = Self.closeFrom?(&actions, 3)

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        // A clean signal state: the spawning thread (one of Swift's or Dispatch's) blocks SIGTERM and
        // others, and a child that inherited that could not be stopped (a script's `trap` never runs).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noneBlocked = sigset_t(), allDefault = sigset_t()
        sigemptyset(&noneBlocked)
        sigemptyset(&allDefault)
        for signal: Int32 in 1..<32 where signal != SIGKILL && signal != SIGSTOP { sigaddset(&allDefault, signal) }
        posix_spawnattr_setsigmask(&attributes, &noneBlocked)
        posix_spawnattr_setsigdefault(&attributes, &allDefault)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        guard status == 0 else { throw SpawnFailed(errno: status) }
        self.pid = pid
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which Swift's Glibc module
    /// does not import.
    private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

    public var isRunning: Bool {
        exit.withLockedValue { exit in
            guard exit == nil else { return false }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return true }
            exit = status
            return false
        }
    }

    public func signal(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Waits for the child to exit without holding a thread of Swift's cooperative pool (two on a
    /// two-core machine: a test blocked in `waitpid` there stalls every server in the process).
    @discardableResult
    public func exited() async -> Int32 {
        while isRunning {
            // Cancelled, the sleep throws at once: the wait then blocks rather than spins.
            do { try await Task.sleep(for: .milliseconds(20)) } catch { break }
        }
        return waitUntilExit()
    }

    /// Blocks until the child exits; its exit code (128 + the signal for one killed by a signal).
    @discardableResult
    public func waitUntilExit() -> Int32 {
        let status = exit.withLockedValue { exit in
            if let exit { return exit }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1, errno == EINTR {}
            exit = status
            return status
        }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}
