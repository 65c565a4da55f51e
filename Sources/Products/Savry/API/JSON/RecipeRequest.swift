import SavryDomain

/// The contract's `CreateRecipeRequest` and its PATCH subset, read from a body. Types are checked
/// here; what the values may be is `RecipeRules`' business, checked by the decisions.
enum RecipeRequest {
    static let fields: Set<String> = [
        "name", "description", "ingredients", "instructions", "prepTime", "cookTime", "servings", "calories", "difficulty", "cuisine",
        "dietaryTags", "imageUrl", "estimatedCost", "isPublic",
    ]
    static let ingredientFields: Set<String> = ["name", "quantity", "unit", "price", "store", "onSale", "aisle", "section"]

    /// `name`, `ingredients` and `instructions` are required (the contract's request has them
    /// non-optional); the lists may be empty. Every other field may be absent or null.
    static func create(_ body: RequestBody) throws -> RecipeFields {
        try checkPrivate(body)
        return RecipeFields(
            name: try body.required("name", body.string("name")),
            description: try body.string("description") ?? nil,
            ingredients: try body.required("ingredients", ingredients(body)),
            instructions: try body.required("instructions", body.stringList("instructions")),
            prepTime: try body.integer("prepTime") ?? nil,
            cookTime: try body.integer("cookTime") ?? nil,
            servings: try body.integer("servings") ?? nil,
            calories: try body.integer("calories") ?? nil,
            difficulty: try body.string("difficulty") ?? nil,
            cuisine: try body.string("cuisine") ?? nil,
            dietaryTags: try body.stringList("dietaryTags") ?? nil,
            imageUrl: try body.string("imageUrl") ?? nil,
            estimatedCost: try body.number("estimatedCost") ?? nil
        )
    }

    /// Any subset of the fields. `null` clears an optional field; `name`, `ingredients` and
    /// `instructions` cannot be null (send `[]` to empty a list).
    static func changes(_ body: RequestBody) throws -> RecipeChanges {
        try checkPrivate(body)
        return RecipeChanges(
            name: try body.notNull("name", body.string("name")),
            description: try body.string("description"),
            ingredients: try body.notNull("ingredients", ingredients(body)),
            instructions: try body.notNull("instructions", body.stringList("instructions")),
            prepTime: try body.integer("prepTime"),
            cookTime: try body.integer("cookTime"),
            servings: try body.integer("servings"),
            calories: try body.integer("calories"),
            difficulty: try body.string("difficulty"),
            cuisine: try body.string("cuisine"),
            dietaryTags: try body.stringList("dietaryTags"),
            imageUrl: try body.string("imageUrl"),
            estimatedCost: try body.number("estimatedCost")
        )
    }

    /// Recipes are private: `isPublic` may be sent as false (or null), and is then ignored.
    private static func checkPrivate(_ body: RequestBody) throws {
        if case .some(.some(true)) = try body.bool("isPublic") {
            throw SavryAPIError.badRequest("isPublic must be false: recipes are private")
        }
    }

    private static func ingredients(_ body: RequestBody) throws -> [RecipeIngredient]?? {
        try body.objectList("ingredients", fields: ingredientFields) { item in
            RecipeIngredient(
                name: try item.required("name", item.string("name")),
                quantity: try item.string("quantity") ?? nil,
                unit: try item.string("unit") ?? nil,
                price: try item.number("price") ?? nil,
                store: try item.string("store") ?? nil,
                onSale: try item.bool("onSale") ?? nil,
                aisle: try item.string("aisle") ?? nil,
                section: try item.string("section") ?? nil
            )
        }
    }
}
