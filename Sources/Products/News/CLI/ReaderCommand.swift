import ArgumentParser
import NewsCommands
import NewsProjections
import OperatorCLI

/// `news reader --x-user-id ID`: the reader an `X-User-ID` names, for the operator commands that take
/// a user id (`erase`, `audit`). Reads the log (read-only) and the key store directly, so it works
/// while the server runs; an erased reader is no one's.
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
        let live = try global.openLogAndKeys()
        defer { live.close() }
        let commands = NewsCommandService(store: NewsStore(log: live.log, personalData: live.personalData))
        guard let reader = try commands.existingReader(xUserId) else {
            throw OperatorRefusal("""
                \(xUserId) names no reader: it has set no preferences, or its reader is erased. Preferences set \
                before readers (builds before 2026-11-30) are kept under the id itself: a PUT /v1/preferences of {} \
                as that id makes it a reader, who holds them and can then be erased
                """)
        }
        print(reader)
    }
}
