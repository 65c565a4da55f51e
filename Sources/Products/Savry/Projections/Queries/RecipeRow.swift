import Foundation
import GRDB
import SavryDomain

/// A live recipe as the read model holds it. Times are epoch milliseconds.
public struct StoredRecipe: Sendable, Equatable {
    public var id: String
    public var userId: Int64
    public var fields: RecipeFields
    public var createdAt: Int64
    public var updatedAt: Int64
}

/// Rows of `recipe` to and from `StoredRecipe`.
enum RecipeRow {
    static func decode(_ row: Row) throws -> StoredRecipe {
        let tags: String? = row["dietaryTags"]
        return StoredRecipe(
            id: row["recipeId"], userId: row["userId"],
            fields: RecipeFields(
                name: row["name"], description: row["description"],
                ingredients: try decoded(row["ingredients"]), instructions: try decoded(row["instructions"]),
                prepTime: row["prepTime"], cookTime: row["cookTime"], servings: row["servings"], calories: row["calories"],
                difficulty: row["difficulty"], cuisine: row["cuisine"], dietaryTags: try tags.map { try decoded($0) },
                imageUrl: row["imageUrl"], estimatedCost: row["estimatedCost"]
            ),
            createdAt: row["createdAt"], updatedAt: row["updatedAt"]
        )
    }

    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private static func decoded<T: Decodable>(_ text: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(text.utf8))
    }
}
