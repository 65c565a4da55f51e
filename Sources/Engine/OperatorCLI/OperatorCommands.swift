import ArgumentParser
import ReadModels

/// The operator commands the engine gives every product's executable, listed once: a command
/// added here reaches all four.
public enum OperatorCommands<Product: EventSourcedProduct> {
    /// replay, audit, backup, backup-keys, restore, verify, log-copy, erase, seal-log.
    public static var all: [any ParsableCommand.Type] {
        [
            ReplayCommand<Product>.self, AuditCommand<Product>.self, BackupCommand<Product>.self, BackupKeysCommand<Product>.self,
            RestoreCommand<Product>.self, VerifyCommand<Product>.self, LogCopyCommand<Product>.self, EraseCommand<Product>.self,
            SealLogCommand<Product>.self,
        ]
    }
}
