import EventSourcing
import Foundation
import GRDB
import ReadModels
import SavryDomain

/// One row per live recipe with every field, its owner, and when it was created and last changed
/// (epoch milliseconds). Lists are stored as JSON text. Folds `recipe-created`, `recipe-updated`,
/// `recipe-deleted` and `user-erased`.
///
/// An erased user's recipes are gone: `user-erased` deletes their rows and their clock, and a
/// recipe whose content reads as absent (its owner's key is destroyed: a fold from position 0 after
/// the erasure) gets no row and no stamp. Folding live and folding again after the erasure leave the
/// same rows.
///
/// A user's recipes are listed newest `updatedAt` first and paged by `updatedAt`, so no two of them
/// may share one: each stamp is the event's time in milliseconds, or one past the latest stamp this
/// user has had (kept in `recipeClock`, deleted recipes included), whichever is later. The stamps
/// depend only on the log, so a refold gives the same ones; the unique index holds the rule.
struct RecipesProjection: Projection {
    let name = "savry-recipes"
    let version = 1
    let tables = ["recipe", "recipeClock"]

    func createSchema(_ db: Database) throws {
        try db.create(table: "recipe") { t in
            t.primaryKey("recipeId", .text)
            t.column("userId", .integer).notNull()
            t.column("name", .text).notNull()
            t.column("description", .text)
            t.column("ingredients", .text).notNull()
            t.column("instructions", .text).notNull()
            t.column("prepTime", .integer)
            t.column("cookTime", .integer)
            t.column("servings", .integer)
            t.column("calories", .integer)
            t.column("difficulty", .text)
            t.column("cuisine", .text)
            t.column("dietaryTags", .text)
            t.column("imageUrl", .text)
            t.column("estimatedCost", .double)
            t.column("createdAt", .integer).notNull()
            t.column("updatedAt", .integer).notNull()
        }
        try db.create(index: "recipeByOwnerAndStamp", on: "recipe", columns: ["userId", "updatedAt"], unique: true)
        try db.create(table: "recipeClock") { t in
            t.primaryKey("userId", .integer)
            t.column("latestStamp", .integer).notNull()
        }
    }

    func apply(_ recorded: Recorded<SavryEvent>, _ db: Database) throws {
        switch recorded.event {
        case .recipeCreated(let created):
            guard let fields = created.fields else { return }
            let stamp = try nextStamp(for: created.userId, recordedAt: recorded.recordedAt, db)
            try write(created.recipeId, owner: created.userId, fields: fields, createdAt: stamp, updatedAt: stamp, db)
        case .recipeUpdated(let updated):
            guard let changes = updated.changes,
                  let row = try Row.fetchOne(db, sql: "SELECT * FROM recipe WHERE recipeId = ?", arguments: [updated.recipeId])
            else { return }
            let stored = try RecipeRow.decode(row)
            let stamp = try nextStamp(for: stored.userId, recordedAt: recorded.recordedAt, db)
            try write(
                stored.id, owner: stored.userId, fields: changes.applied(to: stored.fields), createdAt: stored.createdAt, updatedAt: stamp, db
            )
        case .recipeDeleted(let deleted):
            try db.run("DELETE FROM recipe WHERE recipeId = ?", [deleted.recipeId])
        case .userErased(let erased):
            try db.run("DELETE FROM recipe WHERE userId = ?", [erased.userId])
            try db.run("DELETE FROM recipeClock WHERE userId = ?", [erased.userId])
        case .identityClaimed, .userRegistered, .signedOut:
            break
        }
    }

    /// `recordedAt` in whole milliseconds, or one past the user's latest stamp when that is later.
    private func nextStamp(for userId: Int64, recordedAt: Date, _ db: Database) throws -> Int64 {
        let latest = try Int64.fetchOne(db, sql: "SELECT latestStamp FROM recipeClock WHERE userId = ?", arguments: [userId])
        let stamp = max(RecipeStamp.milliseconds(recordedAt), latest.map { $0 + 1 } ?? .min)
        try db.run("INSERT OR REPLACE INTO recipeClock (userId, latestStamp) VALUES (?, ?)", [userId, stamp])
        return stamp
    }

    private func write(_ recipeId: String, owner: Int64, fields: RecipeFields, createdAt: Int64, updatedAt: Int64, _ db: Database) throws {
        try db.run("""
            INSERT OR REPLACE INTO recipe (recipeId, userId, name, description, ingredients, instructions, prepTime, cookTime, servings,
                calories, difficulty, cuisine, dietaryTags, imageUrl, estimatedCost, createdAt, updatedAt)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [
                recipeId, owner, fields.name, fields.description, try RecipeRow.json(fields.ingredients), try RecipeRow.json(fields.instructions),
                fields.prepTime, fields.cookTime, fields.servings, fields.calories, fields.difficulty, fields.cuisine,
                try fields.dietaryTags.map(RecipeRow.json), fields.imageUrl, fields.estimatedCost, createdAt, updatedAt,
            ])
    }
}

/// Times as the recipes read model keeps them.
public enum RecipeStamp {
    /// Whole milliseconds since 1970, truncated. Rounded to the microsecond first, as the log records
    /// it, so that a `Date`'s floating-point error cannot move a time that is exactly on a millisecond.
    public static func milliseconds(_ date: Date) -> Int64 {
        let microseconds = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        return microseconds >= 0 ? microseconds / 1_000 : (microseconds - 999) / 1_000
    }
}
