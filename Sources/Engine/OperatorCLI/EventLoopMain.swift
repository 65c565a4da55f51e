import ArgumentParser
import NIOCore
import NIOPosix

extension AsyncParsableCommand {
    /// Parses and runs the command with SwiftNIO's event loops as Swift Concurrency's global
    /// executor, before any task runs. A request's handler then runs on the event loop that read it
    /// instead of hopping to Concurrency's own thread pool and back: on two cores, those thread
    /// switches cost a fifth to a half of a read endpoint's throughput (BENCHMARKS.md, issue 18).
    /// Handlers' synchronous work (short SQLite reads) occupies a loop as it occupied a pool thread.
    ///
    /// Its cost: NIO keeps a job on the loop that enqueued it, so work gathers on one loop while the
    /// other idles, for seconds at a time once requests cost a millisecond or more. Savry's soak on
    /// two cores stalled requests up to 56 s with it (544 timeouts in 10 minutes) and none without
    /// (RELIABILITY.md section 5). Only Nuvie, whose hot reads are microseconds, still uses it; the
    /// other products run on Swift's own executor.
    public static func mainOnEventLoops() async {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
