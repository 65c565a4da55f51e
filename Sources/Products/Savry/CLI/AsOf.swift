import ArgumentParser
import OperatorCLI
import ReadModels
import SavryAPI
import SavryProjections

/// `savry as-of … --recipe ID`: one recipe as GET /api/app/recipes/{id} showed it then.
struct RecipeAsOf: PastStateView {
    static let abstract = "The state as of a log position or an instant: one recipe as it was, or the whole API served read-only on a port."
    static let option = "--recipe"

    @Option(help: "Print this recipe as GET /api/app/recipes/{id} showed it then.")
    var recipe: String?

    var isGiven: Bool { recipe != nil }
    var subject: String { "recipe \(recipe ?? "")" }

    func document(from database: ReadDatabase, at position: UInt64) throws -> String {
        guard let found = try RecipeQueries(database: database).recipe(id: recipe ?? "") else {
            throw OperatorRefusal("no recipe \(recipe ?? "") then: not created yet, or deleted")
        }
        return try RecipeDocument.json(found)
    }
}
