import Dispatch
import Foundation
import Synchronization

/// Offline work whose items stand alone (a user ranked, a row of factors solved), on every core.
enum EveryCore {
    /// `body` of every index in `0..<count`, each core taking every `lanes`th index; the results in
    /// index order. A failure is thrown once every core has stopped.
    static func map<T: Sendable, Failure: Error>(_ count: Int, _ body: @Sendable (Int) throws(Failure) -> T) throws(Failure) -> [T] {
        let lanes = max(1, min(ProcessInfo.processInfo.activeProcessorCount, count))
        let done = Mutex((byLane: [Int: [T]](), failure: Failure?.none))
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            var results: [T] = []
            do throws(Failure) {
                for index in stride(from: lane, to: count, by: lanes) { results.append(try body(index)) }
            } catch {
                done.withLock { $0.failure = $0.failure ?? error }
            }
            done.withLock { $0.byLane[lane] = results }
        }
        let (byLane, failure) = done.withLock { ($0.byLane, $0.failure) }
        if let failure { throw failure }
        return (0..<count).compactMap { byLane[$0 % lanes]?[$0 / lanes] }
    }
}
