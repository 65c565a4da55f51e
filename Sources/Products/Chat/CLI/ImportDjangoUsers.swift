import ArgumentParser
import ChatCommands
import ChatDomain
import ChatProjections
import Foundation
import OperatorCLI
import ProductHosting

/// `chat import-django-users FILE`: accounts from the Django app's `dumpdata auth.user`, with their
/// password hashes as Django stored them, so they log in here with the passwords they had.
struct ImportDjangoUsers: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-django-users",
        abstract: "Import accounts from `manage.py dumpdata auth.user` (pbkdf2_sha256 hashes); addresses that already have an account are skipped."
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The JSON file dumpdata wrote.")
    var file: String

    func run() async throws {
        let logger = global.logger()
        let export = try DjangoUserExport(json: try Data(contentsOf: URL(fileURLWithPath: file)))
        try await global.whileNoServerRuns("import") {
            let stores = try await global.openStores(logger: logger)
            defer { stores.close() }
            let commands = try ChatCommandService(store: stores.store)
            var imported = 0, skipped = 0, refused: [String] = []
            for account in export.accounts {
                do {
                    let userId = try await commands.importAccount(
                        email: account.email, passwordHash: account.passwordHash, username: account.username,
                        firstName: account.firstName, lastName: account.lastName, dateJoined: account.dateJoined
                    )
                    if userId == nil { skipped += 1 } else { imported += 1 }
                } catch ChatDomainError.invalid(let field, let reason) {
                    // One account that cannot be kept (a social sign-in's unusable password) does not stop the others.
                    refused.append("\(account.email): \(field) \(reason)")
                }
            }
            try stores.runner(logger: logger).catchUp()
            print("imported \(imported) accounts; skipped \(skipped) whose email already has one")
            guard refused.isEmpty else {
                print("refused \(refused.count), each needs fixing or a password reset:\n  " + refused.joined(separator: "\n  "))
                throw ExitCode(1)
            }
        }
    }
}
