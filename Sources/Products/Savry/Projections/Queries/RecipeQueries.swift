import GRDB
import ReadModels

/// One page of a user's recipes, newest `updatedAt` first.
public struct RecipePage: Sendable, Equatable {
    public var recipes: [StoredRecipe]
    /// The last recipe's `updatedAt` when older recipes follow it; nil on the last page.
    public var nextCursor: Int64?
    /// The newest `updatedAt` of all the user's recipes; nil when they have none.
    public var head: Int64?
}

/// Reads recipes.
public struct RecipeQueries: Sendable {
    let database: ReadDatabase

    public init(database: ReadDatabase) {
        self.database = database
    }

    public func recipe(id recipeId: String) throws -> StoredRecipe? {
        try database.statement { db in
            try Row.fetchOne(db, sql: "SELECT * FROM recipe WHERE recipeId = ?", arguments: [recipeId]).map(RecipeRow.decode)
        }
    }

    /// Every recipe of the user's, newest `updatedAt` first: what their data export lists.
    public func all(of userId: Int64) throws -> [StoredRecipe] {
        try database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM recipe WHERE userId = ? ORDER BY updatedAt DESC", arguments: [userId]).map(RecipeRow.decode)
        }
    }

    /// Up to `limit` of the user's recipes changed before `before` (epoch milliseconds, exclusive),
    /// newest first. One more is read to know whether another page follows.
    public func page(of userId: Int64, before: Int64?, limit: Int) throws -> RecipePage {
        try database.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT * FROM recipe WHERE userId = ? AND updatedAt < ? ORDER BY updatedAt DESC LIMIT ?
                """, arguments: [userId, before ?? .max, limit + 1])
            let recipes = try rows.prefix(limit).map(RecipeRow.decode)
            let head = try Int64.fetchOne(db, sql: "SELECT MAX(updatedAt) FROM recipe WHERE userId = ?", arguments: [userId])
            return RecipePage(recipes: recipes, nextCursor: rows.count > limit ? recipes.last?.updatedAt : nil, head: head)
        }
    }
}
