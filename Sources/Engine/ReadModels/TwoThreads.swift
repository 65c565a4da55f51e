import Dispatch
import NIOConcurrencyHelpers

/// Pure work over many items split between two threads, the calling one and one more: what a fold
/// does per event before it writes (decoding, reading a text) while its batch's transaction waits.
public enum TwoThreads {
    /// `transform` of each item, in order; on one thread below `threshold` items. concurrentPerform
    /// runs one half on the calling thread, so no thread of the global queue blocks waiting for another.
    public static func map<Item: Sendable, Output: Sendable>(
        _ items: [Item], threshold: Int = 256, _ transform: @Sendable (Item) throws -> Output
    ) throws -> [Output] {
        guard items.count >= threshold else { return try items.map(transform) }
        let halves = [items[..<(items.count / 2)], items[(items.count / 2)...]]
        let results = NIOLockedValueBox<[Int: Result<[Output], any Error>]>([:])
        DispatchQueue.concurrentPerform(iterations: halves.count) { half in
            let result = Result { try halves[half].map(transform) }
            results.withLockedValue { $0[half] = result }
        }
        return try results.withLockedValue { results in try halves.indices.flatMap { try results[$0]?.get() ?? [] } }
    }
}
