/// One line of a recipe's ingredient list: every field of the contract's `RecipeIngredient`.
public struct RecipeIngredient: Codable, Sendable, Hashable {
    public var name: String
    public var quantity: String?
    public var unit: String?
    public var price: Double?
    public var store: String?
    public var onSale: Bool?
    public var aisle: String?
    public var section: String?

    public init(
        name: String, quantity: String? = nil, unit: String? = nil, price: Double? = nil, store: String? = nil,
        onSale: Bool? = nil, aisle: String? = nil, section: String? = nil
    ) {
        self.name = name
        self.quantity = quantity
        self.unit = unit
        self.price = price
        self.store = store
        self.onSale = onSale
        self.aisle = aisle
        self.section = section
    }
}

/// Everything a user writes about a recipe. `ingredients` and `instructions` are always lists
/// (possibly empty); the other optionals are nil when not given or cleared.
public struct RecipeFields: Codable, Sendable, Hashable {
    public var name: String
    public var description: String?
    public var ingredients: [RecipeIngredient]
    public var instructions: [String]
    public var prepTime: Int?
    public var cookTime: Int?
    public var servings: Int?
    public var calories: Int?
    public var difficulty: String?
    public var cuisine: String?
    public var dietaryTags: [String]?
    public var imageUrl: String?
    public var estimatedCost: Double?

    public init(
        name: String, description: String? = nil, ingredients: [RecipeIngredient] = [], instructions: [String] = [],
        prepTime: Int? = nil, cookTime: Int? = nil, servings: Int? = nil, calories: Int? = nil, difficulty: String? = nil,
        cuisine: String? = nil, dietaryTags: [String]? = nil, imageUrl: String? = nil, estimatedCost: Double? = nil
    ) {
        self.name = name
        self.description = description
        self.ingredients = ingredients
        self.instructions = instructions
        self.prepTime = prepTime
        self.cookTime = cookTime
        self.servings = servings
        self.calories = calories
        self.difficulty = difficulty
        self.cuisine = cuisine
        self.dietaryTags = dietaryTags
        self.imageUrl = imageUrl
        self.estimatedCost = estimatedCost
    }
}
