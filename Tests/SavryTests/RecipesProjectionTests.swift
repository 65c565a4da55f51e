import Foundation
import GRDB
import ReadModels
import SavryCommands
import SavryDomain
import SavryProjections
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(3))) struct RecipesProjectionTests {
    static let at = Date(timeIntervalSince1970: 1_767_139_200.5)
    static let atMs: Int64 = 1_767_139_200_500

    static func created(_ id: String, by user: Int64, name: String? = nil) -> SavryEvent {
        .recipeCreated(RecipeCreated(recipeId: id, userId: user, fields: RecipeFields(
            name: name ?? "Recipe \(id)", ingredients: [RecipeIngredient(name: "egg", quantity: "2")], instructions: ["Whisk"], dietaryTags: ["vegetarian"]
        )))
    }

    @Test func eventsSharingATimeGetEachUsersStampsOneMillisecondApart() async throws {
        let storage = try await SavryStorage()
        for id in ["a", "b", "c"] { try await storage.append(Self.created(id, by: 1), to: "recipe-\(id)", at: Self.at) }
        try await storage.append(Self.created("x", by: 2), to: "recipe-x", at: Self.at)
        try await storage.append(.recipeUpdated(RecipeUpdated(recipeId: "a", userId: 1, changes: RecipeChanges(description: .some("Fluffy")))), to: "recipe-a", at: Self.at)
        try await storage.append(.recipeDeleted(RecipeDeleted(recipeId: "c", userId: 1)), to: "recipe-c", at: Self.at)
        // A later event well after the clock: its own time wins.
        try await storage.append(Self.created("d", by: 1), to: "recipe-d", at: Self.at.addingTimeInterval(60))
        try storage.runner.catchUp()

        let queries = RecipeQueries(database: storage.database)
        let rows = try #require(try queries.page(of: 1, before: nil, limit: 50))
        #expect(rows.recipes.map(\.id) == ["d", "a", "b"])
        #expect(rows.recipes.map(\.updatedAt) == [Self.atMs + 60_000, Self.atMs + 3, Self.atMs + 1])
        #expect(rows.recipes.map(\.createdAt) == [Self.atMs + 60_000, Self.atMs, Self.atMs + 1])
        #expect(rows.head == Self.atMs + 60_000 && rows.nextCursor == nil)
        #expect(try queries.recipe(id: "x")?.updatedAt == Self.atMs)
        #expect(try queries.recipe(id: "c") == nil)
        let a = try #require(try queries.recipe(id: "a"))
        #expect(a.fields.description == "Fluffy" && a.fields.ingredients == [RecipeIngredient(name: "egg", quantity: "2")] && a.fields.dietaryTags == ["vegetarian"])
    }

    @Test func aPageEndsWithACursorOnlyWhenOlderRecipesFollow() async throws {
        let storage = try await SavryStorage()
        for id in ["a", "b", "c", "d"] { try await storage.append(Self.created(id, by: 1), to: "recipe-\(id)", at: Self.at) }
        try storage.runner.catchUp()
        let queries = RecipeQueries(database: storage.database)
        let first = try queries.page(of: 1, before: nil, limit: 2)
        #expect(first.recipes.map(\.id) == ["d", "c"] && first.nextCursor == Self.atMs + 2)
        let last = try queries.page(of: 1, before: first.nextCursor, limit: 2)
        #expect(last.recipes.map(\.id) == ["b", "a"] && last.nextCursor == nil)
        let none = try queries.page(of: 9, before: nil, limit: 2)
        #expect(none.recipes.isEmpty && none.nextCursor == nil && none.head == nil)
    }

    @Test func foldingTheLogAgainFromTheStartGivesTheSameRows() async throws {
        let storage = try await SavryStorage()
        try await SavryDemoSeed.run(into: storage.commands)
        for id in ["a", "b"] { try await storage.append(Self.created(id, by: 1), to: "recipe-\(id)", at: Self.at) }
        try await storage.append(.recipeUpdated(RecipeUpdated(recipeId: "a", userId: 1, changes: RecipeChanges(name: "A", dietaryTags: .some(nil)))), to: "recipe-a", at: Self.at)
        try await storage.append(.recipeDeleted(RecipeDeleted(recipeId: "b", userId: 1)), to: "recipe-b", at: Self.at)
        try storage.runner.catchUp()
        let served = try storage.database.canonicalDump()
        #expect(served.contains("\"updatedAt\""))
        #expect(try storage.refold() == served)
        #expect(try storage.refold() == served)
    }

    /// A projection version's schema is frozen: a change without a new version fails here. A new
    /// version: run once with `SAVRY_RECORD_SCHEMAS=1` and commit the new file.
    @Test func eachProjectionVersionKeepsItsRecordedSchema() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Schemas")
        #expect(try projectionsWithChangedSchemas(SavryReadModels.all, recordedIn: directory, recordFlag: "SAVRY_RECORD_SCHEMAS") == [])
    }
}
