/// A change to some of a recipe's fields. A nil property leaves the field as it is; for the fields
/// that may be empty, `.some(nil)` clears it. In the log an unchanged field is absent and a cleared
/// one is `null`, so a `recipe-updated` event holds exactly what changed.
public struct RecipeChanges: Codable, Sendable, Hashable {
    public var name: String?
    public var description: String??
    public var ingredients: [RecipeIngredient]?
    public var instructions: [String]?
    public var prepTime: Int??
    public var cookTime: Int??
    public var servings: Int??
    public var calories: Int??
    public var difficulty: String??
    public var cuisine: String??
    public var dietaryTags: [String]??
    public var imageUrl: String??
    public var estimatedCost: Double??

    public init(
        name: String? = nil, description: String?? = nil, ingredients: [RecipeIngredient]? = nil, instructions: [String]? = nil,
        prepTime: Int?? = nil, cookTime: Int?? = nil, servings: Int?? = nil, calories: Int?? = nil, difficulty: String?? = nil,
        cuisine: String?? = nil, dietaryTags: [String]?? = nil, imageUrl: String?? = nil, estimatedCost: Double?? = nil
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

    public var isEmpty: Bool { self == RecipeChanges() }

    /// `fields` with these changes made.
    public func applied(to fields: RecipeFields) -> RecipeFields {
        var result = fields
        if let name { result.name = name }
        if let description { result.description = description }
        if let ingredients { result.ingredients = ingredients }
        if let instructions { result.instructions = instructions }
        if let prepTime { result.prepTime = prepTime }
        if let cookTime { result.cookTime = cookTime }
        if let servings { result.servings = servings }
        if let calories { result.calories = calories }
        if let difficulty { result.difficulty = difficulty }
        if let cuisine { result.cuisine = cuisine }
        if let dietaryTags { result.dietaryTags = dietaryTags }
        if let imageUrl { result.imageUrl = imageUrl }
        if let estimatedCost { result.estimatedCost = estimatedCost }
        return result
    }

    /// Only the changes that would make `fields` differ: what an update records.
    public func differing(from fields: RecipeFields) -> RecipeChanges {
        func changed<T: Equatable>(_ change: T?, _ current: T) -> T? {
            change.flatMap { $0 == current ? nil : $0 }
        }
        return RecipeChanges(
            name: changed(name, fields.name), description: changed(description, fields.description),
            ingredients: changed(ingredients, fields.ingredients), instructions: changed(instructions, fields.instructions),
            prepTime: changed(prepTime, fields.prepTime), cookTime: changed(cookTime, fields.cookTime),
            servings: changed(servings, fields.servings), calories: changed(calories, fields.calories),
            difficulty: changed(difficulty, fields.difficulty), cuisine: changed(cuisine, fields.cuisine),
            dietaryTags: changed(dietaryTags, fields.dietaryTags), imageUrl: changed(imageUrl, fields.imageUrl),
            estimatedCost: changed(estimatedCost, fields.estimatedCost)
        )
    }

    private enum CodingKeys: String, CodingKey {
        case name, description, ingredients, instructions, prepTime, cookTime, servings, calories, difficulty, cuisine, dietaryTags, imageUrl, estimatedCost
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decodeIfPresent(String.self, forKey: .name)
        description = try c.decodeChange(forKey: .description)
        ingredients = try c.decodeIfPresent([RecipeIngredient].self, forKey: .ingredients)
        instructions = try c.decodeIfPresent([String].self, forKey: .instructions)
        prepTime = try c.decodeChange(forKey: .prepTime)
        cookTime = try c.decodeChange(forKey: .cookTime)
        servings = try c.decodeChange(forKey: .servings)
        calories = try c.decodeChange(forKey: .calories)
        difficulty = try c.decodeChange(forKey: .difficulty)
        cuisine = try c.decodeChange(forKey: .cuisine)
        dietaryTags = try c.decodeChange(forKey: .dietaryTags)
        imageUrl = try c.decodeChange(forKey: .imageUrl)
        estimatedCost = try c.decodeChange(forKey: .estimatedCost)
    }
}

extension KeyedDecodingContainer {
    /// Absent: nil (unchanged). `null`: `.some(nil)` (cleared). A value: `.some(value)`.
    fileprivate func decodeChange<T: Decodable>(forKey key: Key) throws -> T?? {
        guard contains(key) else { return nil }
        return .some(try decodeNil(forKey: key) ? nil : try decode(T.self, forKey: key))
    }
}
