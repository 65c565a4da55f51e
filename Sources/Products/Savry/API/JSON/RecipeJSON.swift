import Hummingbird
import SavryDomain
import SavryProjections

/// The contract's `Recipe`, every field present (`null` when empty, never left out), plus when it
/// was created and last changed. `userId` and `id` are strings, `isPublic` is always false.
struct RecipeJSON: Encodable, Sendable {
    let recipe: StoredRecipe

    private enum Key: String, CodingKey {
        case id, userId, name, description, ingredients, instructions, prepTime, cookTime, servings, calories, difficulty, cuisine
        case dietaryTags, imageUrl, estimatedCost, isPublic, createdAt, updatedAt
    }

    func encode(to encoder: any Encoder) throws {
        let fields = recipe.fields
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(recipe.id, forKey: .id)
        try c.encode(String(recipe.userId), forKey: .userId)
        try c.encode(fields.name, forKey: .name)
        try c.encode(fields.description, forKey: .description)
        try c.encode(fields.ingredients.map(IngredientJSON.init), forKey: .ingredients)
        try c.encode(fields.instructions, forKey: .instructions)
        try c.encode(fields.prepTime, forKey: .prepTime)
        try c.encode(fields.cookTime, forKey: .cookTime)
        try c.encode(fields.servings, forKey: .servings)
        try c.encode(fields.calories, forKey: .calories)
        try c.encode(fields.difficulty, forKey: .difficulty)
        try c.encode(fields.cuisine, forKey: .cuisine)
        try c.encode(fields.dietaryTags, forKey: .dietaryTags)
        try c.encode(fields.imageUrl, forKey: .imageUrl)
        try c.encode(fields.estimatedCost, forKey: .estimatedCost)
        try c.encode(false, forKey: .isPublic)
        try c.encode(Timestamp.format(milliseconds: recipe.createdAt), forKey: .createdAt)
        try c.encode(Timestamp.format(milliseconds: recipe.updatedAt), forKey: .updatedAt)
    }
}

/// The contract's `RecipeIngredient`, every field present.
struct IngredientJSON: Encodable, Sendable {
    let ingredient: RecipeIngredient

    private enum Key: String, CodingKey {
        case name, quantity, unit, price, store, onSale, aisle, section
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(ingredient.name, forKey: .name)
        try c.encode(ingredient.quantity, forKey: .quantity)
        try c.encode(ingredient.unit, forKey: .unit)
        try c.encode(ingredient.price, forKey: .price)
        try c.encode(ingredient.store, forKey: .store)
        try c.encode(ingredient.onSale, forKey: .onSale)
        try c.encode(ingredient.aisle, forKey: .aisle)
        try c.encode(ingredient.section, forKey: .section)
    }
}

/// `{"success": true, "recipe": …}`, and with `recipeId` for a new one.
struct RecipeResponse: ResponseEncodable {
    let success = true
    let recipeId: String?
    let recipe: RecipeJSON

    private enum Key: String, CodingKey { case success, recipeId, recipe }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(success, forKey: .success)
        if let recipeId { try c.encode(recipeId, forKey: .recipeId) }
        try c.encode(recipe, forKey: .recipe)
    }
}

/// `{"success": true, "recipes": […], "nextCursor": … or null}`.
struct RecipeListResponse: ResponseEncodable {
    let success = true
    let recipes: [RecipeJSON]
    let nextCursor: String?

    private enum Key: String, CodingKey { case success, recipes, nextCursor }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(success, forKey: .success)
        try c.encode(recipes, forKey: .recipes)
        try c.encode(nextCursor, forKey: .nextCursor)
    }
}

struct SuccessResponse: ResponseEncodable {
    let success = true
}

struct TokenResponse: ResponseEncodable {
    let token: String
}

/// A recipe as `GET /api/app/recipes/{id}` shows it, for operator tools (`savry as-of --recipe`).
public enum RecipeDocument {
    public static func json(_ recipe: StoredRecipe) throws -> String {
        let encoder = SavryJSON.encoder()
        encoder.outputFormatting.formUnion([.prettyPrinted, .sortedKeys])
        return String(decoding: try encoder.encode(RecipeJSON(recipe: recipe)), as: UTF8.self)
    }
}
