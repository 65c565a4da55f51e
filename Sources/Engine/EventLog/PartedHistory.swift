import Foundation
import Logging
import NIOConcurrencyHelpers

/// Whether the shared log's history parted from this copy's: it holds another event, or none, where
/// the copy holds one it took from it (a standby promoted without every commit), or the same of what
/// the node copies beside the events (`EventLogError.copiedStateParted`). Once found it stays:
/// the node stops writing and copying, and says why in `/health`, until its data directory is rebuilt.
final class PartedHistory: Sendable {
    private let location: String
    private let state = NIOLockedValueBox<(message: String, since: Date)?>(nil)
    private let logger = Logger(label: "engine.shared-log")

    init(location: String) {
        self.location = location
    }

    var found: (message: String, since: Date)? { state.withLockedValue { $0 } }

    func found(at position: UInt64) {
        found("the shared log no longer holds the event at position \(position) that this node copied from it")
    }

    /// `lost` says what the shared store no longer holds of what this node copied from it.
    func found(_ lost: String) {
        let first = state.withLockedValue { state in
            defer {
                state = state ?? ("\(lost): a server without every commit was promoted. This node stopped writing; rebuild its data directory", Date())
            }
            return state == nil
        }
        if first { logger.critical("the shared store lost what this node copied from it", metadata: ["log": "\(location)", "lost": "\(lost)"]) }
    }
}
