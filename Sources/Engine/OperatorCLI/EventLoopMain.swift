import ArgumentParser
import NIOCore
import NIOPosix

extension AsyncParsableCommand {
    /// Parses and runs the command with SwiftNIO's event loops as Swift Concurrency's global
    /// executor, before any task runs. A request's handler then runs on the event loop that read it
    /// instead of hopping to Concurrency's own thread pool and back: on two cores, those thread
    /// switches cost a fifth to a half of a read endpoint's throughput (BENCHMARKS.md, issue 18).
    /// Handlers' synchronous work (short SQLite reads) occupies a loop as it occupied a pool thread.
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
