import SavryCommands
import SavryDomain
import TestSupport
import Testing

/// Savry's decisions read as given these events, when this command, then these events.
@Suite struct SavryScenarioTests {
    typealias Scenario = CommandScenario<SavryCatalog, SavryCommandService>

    static func cooks(_ ids: Int64...) -> [(stream: String, event: SavryEvent)] {
        ids.map { (SavryStreams.user($0), .userRegistered(UserRegistered(userId: $0, provider: .dev))) }
    }

    @Test func givenACookWhenTheyCreateARecipeThenItIsRecordedAsTheirs() async throws {
        let scenario = try Scenario { SavryCommandService(store: $0) }
        try await scenario.given(Self.cooks(1))
        var recipeId = ""
        let recorded = try await scenario.when { recipeId = try await $0.createRecipe(RecipeFields(name: "Leek soup"), by: 1).recipeId }
        #expect(recorded == [.recipeCreated(RecipeCreated(recipeId: recipeId, userId: 1, fields: RecipeFields(name: "Leek soup")))])
    }

    @Test func givenAnotherCooksRecipeWhenOneDeletesItThenItIsRefused() async throws {
        let scenario = try Scenario { SavryCommandService(store: $0) }
        try await scenario.given(Self.cooks(1, 2) + [(SavryStreams.recipe("r1"), .recipeCreated(RecipeCreated(recipeId: "r1", userId: 1, fields: RecipeFields(name: "Toast"))))])
        try await scenario.whenRefused(SavryDomainError.notOwner(recipeId: "r1")) { _ = try await $0.deleteRecipe("r1", by: 2) }
        #expect(try await scenario.when { _ = try await $0.deleteRecipe("r1", by: 1) } == [.recipeDeleted(RecipeDeleted(recipeId: "r1", userId: 1))])
        try await scenario.whenRefused(SavryDomainError.recipeNotFound(recipeId: "r1")) { _ = try await $0.deleteRecipe("r1", by: 1) }
    }
}
