import ArgumentParser
import EventLog
import EventSourcing
import NewsCommands
import NewsProjections
import OperatorCLI

/// `news reader --x-user-id ID`: the reader an `X-User-ID` names, for the operator commands that take
/// a user id (`erase`, `audit`). Reads the log directly, so it works while the server runs.
struct ReaderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reader",
        abstract: "Print the reader id an X-User-ID names (for erase --user and audit --user)."
    )

    @OptionGroup var global: GlobalOptions

    @Option(name: .customLong("x-user-id"), help: "The X-User-ID the app sends.")
    var xUserId: String

    func run() async throws {
        _ = global.logger()
        let log = try EventLog(configuration: .init(directory: try global.existingProductDirectory().log))
        defer { log.close() }
        let commands = NewsCommandService(store: NewsStore(log: log, personalData: WithheldPersonalData()))
        guard let reader = try commands.existingReader(xUserId) else {
            throw OperatorRefusal("\(xUserId) names no reader: it has set no preferences")
        }
        print(reader)
    }
}
