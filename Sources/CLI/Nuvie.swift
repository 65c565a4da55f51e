import ArgumentParser

@main
struct Nuvie: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Nuvie's event-sourced backend: an LMDB event log, SQLite read models, the iOS contract over HTTP.",
        subcommands: [Serve.self, Import.self, Replay.self, Audit.self, AsOf.self, BackupCommand.self, RestoreCommand.self, VerifyCommand.self, Eval.self],
        defaultSubcommand: Serve.self
    )
}
