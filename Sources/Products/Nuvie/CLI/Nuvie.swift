import ArgumentParser
import NuvieProjections
import OperatorCLI

@main
struct Nuvie: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Nuvie's event-sourced backend: an LMDB event log, SQLite read models, the iOS contract over HTTP.",
        subcommands: [
            Serve.self, Import.self, ReplayCommand<NuvieProduct>.self, AuditCommand<NuvieProduct>.self, AsOf.self,
            BackupCommand<NuvieProduct>.self, RestoreCommand<NuvieProduct>.self, VerifyCommand<NuvieProduct>.self,
            BackupKeysCommand<NuvieProduct>.self, EraseCommand<NuvieProduct>.self, SealLogCommand<NuvieProduct>.self, Eval.self,
        ],
        defaultSubcommand: Serve.self
    )

    static func main() async {
        await mainOnEventLoops()
    }
}
