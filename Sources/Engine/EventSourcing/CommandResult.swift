import Foundation

/// What a command recorded: the log position the caller waits for (read-your-writes) and when.
public struct CommandResult: Sendable, Equatable {
    /// The last position this command wrote, or the head it decided against when it wrote nothing.
    public var position: UInt64
    public var recordedAt: Date

    public init(position: UInt64, recordedAt: Date) {
        self.position = position
        self.recordedAt = recordedAt
    }
}
