import ArgumentParser
import Foundation
import OperatorCLI
import SavryAPI
import SavryApp
import SavryProjections

/// `savry as-of --position N | --time T [--recipe ID | --serve PORT]`: the state as it was.
struct AsOf: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "as-of",
        abstract: "The state as of a log position or an instant: one recipe as it was, or the whole API served read-only on a port."
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var when: AsOfOptions

    @Option(help: "Print this recipe as GET /api/app/recipes/{id} showed it then.")
    var recipe: String?

    @OptionGroup var serving: AsOfServeOptions<SavryProduct>

    func validate() throws {
        guard (recipe == nil) != (serving.serve == nil) else { throw ValidationError("give exactly one of --recipe and --serve") }
    }

    /// Personal fields are opened with the live key store, never a copy: a user erased since reads as
    /// erased in every past state too (their recipes are not there).
    func run() async throws {
        if let port = serving.serve {
            return try await global.serveReadOnly(asOf: when, host: serving.host, port: port)
        }
        let recipe = recipe ?? ""
        let found = try await global.readModels(asOf: when) { database, position, at in
            guard let found = try RecipeQueries(database: database).recipe(id: recipe) else {
                throw ValidationError("no recipe \(recipe) as of position \(position) (\(at)): not created yet, or deleted")
            }
            FileHandle.standardError.write(Data("recipe \(found.id) as of position \(position) (\(at))\n".utf8))
            return found
        }
        print(try RecipeDocument.json(found))
    }
}
