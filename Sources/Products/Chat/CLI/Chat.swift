import ArgumentParser
import ChatProjections
import OperatorCLI

@main
struct Chat: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The chat backend on the event-sourced engine: an LMDB event log, SQLite read models, the iOS contract over HTTP.",
        subcommands: [
            Serve.self, ImportDjangoUsers.self, AsOf.self, ReplayCommand<ChatProduct>.self, AuditCommand<ChatProduct>.self,
            BackupCommand<ChatProduct>.self, BackupKeysCommand<ChatProduct>.self, RestoreCommand<ChatProduct>.self, VerifyCommand<ChatProduct>.self,
            EraseCommand<ChatProduct>.self, SealLogCommand<ChatProduct>.self,
        ],
        defaultSubcommand: Serve.self
    )
}

typealias GlobalOptions = ProductOptions<ChatProduct>
