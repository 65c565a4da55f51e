import SavryDomain
import Testing

/// Given the recipe's events, when a command is decided, then these events or this refusal. Pure:
/// no log, no clock.
@Suite struct RecipeDecisionTests {
    static let soup = RecipeFields(name: "Soup", ingredients: [RecipeIngredient(name: "leek")], instructions: ["Simmer"], servings: 2, cuisine: "French")
    static let created: [SavryEvent] = [.recipeCreated(RecipeCreated(recipeId: "r1", userId: 1, fields: soup))]

    @Test func givenNothingWhenCreatedThenTheRecipeWithItsNameTrimmed() throws {
        var fields = Self.soup
        fields.name = "  Soup \n"
        let decided = try RecipeDecisions.create("r1", by: 1, fields: fields, state: RecipeState.fold([SavryEvent]()))
        #expect(decided == Self.created)
    }

    /// A cap counted in characters as a user sees them let 200,000 combining accents pass as one
    /// (a 400 KB name); an emoji family, seven code points, still counts as one.
    @Test func givenNothingWhenANameIsMostlyCombiningMarksThenRefused() throws {
        var fields = Self.soup
        fields.name = "Soup " + String(repeating: "\u{0301}", count: 200_000)
        #expect(throws: SavryDomainError.invalid(field: "name", reason: "must be 1–200 characters (not counting surrounding blanks)")) {
            try RecipeDecisions.create("r1", by: 1, fields: fields, state: RecipeState.fold([SavryEvent]()))
        }
        fields.name = String(repeating: "👨‍👩‍👧‍👦", count: 200)
        _ = try RecipeDecisions.create("r1", by: 1, fields: fields, state: RecipeState.fold([SavryEvent]()))
    }

    @Test func givenARecipeWhenCreatedAgainUnderItsIdThenRefused() {
        #expect(throws: SavryDomainError.recipeExists(recipeId: "r1")) {
            try RecipeDecisions.create("r1", by: 1, fields: Self.soup, state: RecipeState.fold(Self.created))
        }
    }

    @Test func givenARecipeWhenItsOwnerChangesSomeFieldsThenOnlyThoseThatDifferAreRecorded() throws {
        let changes = RecipeChanges(name: "Soup", description: .some("Warm"), servings: .some(2), cuisine: .some(nil))
        let decided = try RecipeDecisions.update("r1", by: 1, changes: changes, state: RecipeState.fold(Self.created))
        #expect(decided == [.recipeUpdated(RecipeUpdated(recipeId: "r1", userId: 1, changes: RecipeChanges(description: .some("Warm"), cuisine: .some(nil))))])
        let after = RecipeState.fold(Self.created + decided)
        var expected = Self.soup
        expected.description = "Warm"
        expected.cuisine = nil
        #expect(after == .live(owner: 1, fields: expected))
    }

    @Test func givenARecipeWhenChangedToWhatItIsThenNothingIsRecorded() throws {
        #expect(try RecipeDecisions.update("r1", by: 1, changes: RecipeChanges(), state: RecipeState.fold(Self.created)).isEmpty)
        #expect(try RecipeDecisions.update("r1", by: 1, changes: RecipeChanges(name: " Soup ", servings: .some(2)), state: RecipeState.fold(Self.created)).isEmpty)
    }

    @Test func givenAnotherUsersRecipeWhenChangedOrDeletedThenForbidden() {
        let state = RecipeState.fold(Self.created)
        #expect(throws: SavryDomainError.notOwner(recipeId: "r1")) { try RecipeDecisions.update("r1", by: 2, changes: RecipeChanges(name: "Mine"), state: state) }
        #expect(throws: SavryDomainError.notOwner(recipeId: "r1")) { try RecipeDecisions.delete("r1", by: 2, state: state) }
    }

    @Test func givenADeletedOrMissingRecipeWhenChangedOrDeletedThenNotFound() {
        let deleted = RecipeState.fold(Self.created + [.recipeDeleted(RecipeDeleted(recipeId: "r1", userId: 1))])
        for state in [deleted, RecipeState.none] {
            for user: Int64 in [1, 2] {
                #expect(throws: SavryDomainError.recipeNotFound(recipeId: "r1")) { try RecipeDecisions.update("r1", by: user, changes: RecipeChanges(name: "X"), state: state) }
                #expect(throws: SavryDomainError.recipeNotFound(recipeId: "r1")) { try RecipeDecisions.delete("r1", by: user, state: state) }
            }
        }
    }

    @Test func givenARecipeWhoseOwnerWasErasedWhenChangedDeletedOrCreatedAgainThenRefused() {
        // Its content reads as absent once the owner's key is destroyed.
        let erased = RecipeState.fold([
            .recipeCreated(RecipeCreated(recipeId: "r1", userId: 1, fields: nil)),
            .recipeUpdated(RecipeUpdated(recipeId: "r1", userId: 1, changes: nil)),
        ])
        #expect(erased == .erased(owner: 1))
        for user: Int64 in [1, 2] {
            #expect(throws: SavryDomainError.recipeNotFound(recipeId: "r1")) { try RecipeDecisions.update("r1", by: user, changes: RecipeChanges(name: "X"), state: erased) }
            #expect(throws: SavryDomainError.recipeNotFound(recipeId: "r1")) { try RecipeDecisions.delete("r1", by: user, state: erased) }
        }
        #expect(throws: SavryDomainError.recipeExists(recipeId: "r1")) { try RecipeDecisions.create("r1", by: 2, fields: Self.soup, state: erased) }
        #expect(RecipeState.fold(Self.created + [.recipeUpdated(RecipeUpdated(recipeId: "r1", userId: 1, changes: nil))]) == .erased(owner: 1))
    }

    @Test func givenARecipeWhenDeletedByItsOwnerThenDeleted() throws {
        #expect(try RecipeDecisions.delete("r1", by: 1, state: RecipeState.fold(Self.created)) == [.recipeDeleted(RecipeDeleted(recipeId: "r1", userId: 1))])
    }

    static let invalid: [(String, @Sendable (inout RecipeFields) -> Void)] = [
        ("name", { $0.name = "   " }),
        ("name", { $0.name = String(repeating: "a", count: 201) }),
        ("name", { $0.name = "Soup\u{0}" }),
        ("description", { $0.description = "bell\u{7}" }),
        ("prepTime", { $0.prepTime = -1 }),
        ("cookTime", { $0.cookTime = 10_081 }),
        ("servings", { $0.servings = 1_001 }),
        ("calories", { $0.calories = -5 }),
        ("estimatedCost", { $0.estimatedCost = -0.01 }),
        ("estimatedCost", { $0.estimatedCost = .nan }),
        ("estimatedCost", { $0.estimatedCost = .infinity }),
        ("ingredients", { $0.ingredients = Array(repeating: RecipeIngredient(name: "salt"), count: 101) }),
        ("ingredients[0].name", { $0.ingredients = [RecipeIngredient(name: " ")] }),
        ("ingredients[0].price", { $0.ingredients = [RecipeIngredient(name: "salt", price: -1)] }),
        ("instructions", { $0.instructions = Array(repeating: "Stir", count: 101) }),
        ("instructions[1]", { $0.instructions = ["Stir", ""] }),
        ("dietaryTags", { $0.dietaryTags = Array(repeating: "vegan", count: 31) }),
        ("dietaryTags[0]", { $0.dietaryTags = [String(repeating: "x", count: 51)] }),
        ("imageUrl", { $0.imageUrl = "ftp://example.com/a.png" }),
        ("imageUrl", { $0.imageUrl = "https://example.com/a b.png" }),
        ("imageUrl", { $0.imageUrl = "https://" }),
        ("imageUrl", { $0.imageUrl = "https:///a.png" }),
        ("imageUrl", { $0.imageUrl = "http://%00/" }),
        ("imageUrl", { $0.imageUrl = "http://example.com:99999/" }),
        ("imageUrl", { $0.imageUrl = "http://./" }),
        ("imageUrl", { $0.imageUrl = "http://-/" }),
        ("imageUrl", { $0.imageUrl = "http://example.com\\@evil.com/" }),
        ("difficulty", { $0.difficulty = String(repeating: "x", count: 51) }),
        ("difficulty", { $0.difficulty = "" }),
        ("difficulty", { $0.difficulty = "   " }),
    ]

    @Test(arguments: 0..<invalid.count)
    func anInvalidFieldIsRefusedNamingIt(_ index: Int) {
        let (field, spoil) = Self.invalid[index]
        var fields = Self.soup
        spoil(&fields)
        do {
            _ = try RecipeDecisions.create("r2", by: 1, fields: fields, state: .none)
            Issue.record("\(field) was accepted")
        } catch {
            guard case .invalid(let named, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(named == field)
        }
    }

    @Test func tabsAndNewlinesAreText() throws {
        var fields = Self.soup
        fields.description = "Line one\n\tLine two\r\n"
        #expect(try RecipeDecisions.create("r2", by: 1, fields: fields, state: .none).count == 1)
    }
}
