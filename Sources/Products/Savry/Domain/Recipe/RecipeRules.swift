import EventSourcing

/// What a recipe may hold. Text may not hold control characters other than tab, line feed and
/// carriage return (SQLite reads text up to a NUL, and nothing here means anything by the others).
/// Errors name the field as the API spells it.
public enum RecipeRules {
    public static let nameLength = 1...200
    public static let maximumDescriptionLength = 5_000
    public static let maximumIngredients = 100
    public static let maximumInstructions = 100
    public static let maximumInstructionLength = 2_000
    public static let maximumDietaryTags = 30
    public static let maximumTagLength = 50
    public static let maximumImageUrlLength = 2_048
    /// Minutes: at most a week.
    public static let minutes = 0...10_080
    public static let servings = 0...1_000
    public static let calories = 0...100_000
    /// Any currency; the cost of the whole recipe, and the price of one ingredient.
    public static let money = 0.0...1_000_000.0

    public static func validated(_ fields: RecipeFields) throws(SavryDomainError) -> RecipeFields {
        var valid = fields
        valid.name = try name(fields.name)
        try check(description: fields.description)
        valid.ingredients = try ingredients(fields.ingredients)
        try check(instructions: fields.instructions)
        try check(fields.prepTime, in: minutes, field: "prepTime")
        try check(fields.cookTime, in: minutes, field: "cookTime")
        try check(fields.servings, in: servings, field: "servings")
        try check(fields.calories, in: calories, field: "calories")
        try check(difficulty: fields.difficulty)
        try check(text: fields.cuisine, maxLength: 100, field: "cuisine")
        try check(dietaryTags: fields.dietaryTags)
        try check(imageUrl: fields.imageUrl)
        try check(fields.estimatedCost, in: money, field: "estimatedCost")
        return valid
    }

    /// Each field given is held to the same rule as on a new recipe.
    public static func validated(_ changes: RecipeChanges) throws(SavryDomainError) -> RecipeChanges {
        var valid = changes
        if let name = changes.name { valid.name = try Self.name(name) }
        if let description = changes.description { try check(description: description) }
        if let ingredients = changes.ingredients { valid.ingredients = try Self.ingredients(ingredients) }
        if let instructions = changes.instructions { try check(instructions: instructions) }
        if let prepTime = changes.prepTime { try check(prepTime, in: minutes, field: "prepTime") }
        if let cookTime = changes.cookTime { try check(cookTime, in: minutes, field: "cookTime") }
        if let servings = changes.servings { try check(servings, in: Self.servings, field: "servings") }
        if let calories = changes.calories { try check(calories, in: Self.calories, field: "calories") }
        if let difficulty = changes.difficulty { try check(difficulty: difficulty) }
        if let cuisine = changes.cuisine { try check(text: cuisine, maxLength: 100, field: "cuisine") }
        if let dietaryTags = changes.dietaryTags { try check(dietaryTags: dietaryTags) }
        if let imageUrl = changes.imageUrl { try check(imageUrl: imageUrl) }
        if let estimatedCost = changes.estimatedCost { try check(estimatedCost, in: money, field: "estimatedCost") }
        return valid
    }

    /// Trimmed of surrounding blanks, then 1–200 characters.
    static func name(_ name: String) throws(SavryDomainError) -> String {
        let trimmed = name.trimmingBlanks
        guard nameLength.contains(trimmed.count), fitsScalars(trimmed, characters: nameLength.upperBound) else { throw .invalid(field: "name", reason: "must be 1–200 characters (not counting surrounding blanks)") }
        try check(text: trimmed, maxLength: nameLength.upperBound, field: "name")
        return trimmed
    }

    static func ingredients(_ ingredients: [RecipeIngredient]) throws(SavryDomainError) -> [RecipeIngredient] {
        guard ingredients.count <= maximumIngredients else { throw .invalid(field: "ingredients", reason: "must hold at most \(maximumIngredients) ingredients") }
        var valid: [RecipeIngredient] = []
        for (index, ingredient) in ingredients.enumerated() {
            let field = "ingredients[\(index)]"
            var checked = ingredient
            checked.name = ingredient.name.trimmingBlanks
            guard (1...200).contains(checked.name.count), fitsScalars(checked.name, characters: 200) else { throw .invalid(field: "\(field).name", reason: "must be 1–200 characters (not counting surrounding blanks)") }
            try check(text: checked.name, maxLength: 200, field: "\(field).name")
            try check(text: ingredient.quantity, maxLength: 50, field: "\(field).quantity")
            try check(text: ingredient.unit, maxLength: 50, field: "\(field).unit")
            try check(ingredient.price, in: money, field: "\(field).price")
            try check(text: ingredient.store, maxLength: 200, field: "\(field).store")
            try check(text: ingredient.aisle, maxLength: 100, field: "\(field).aisle")
            try check(text: ingredient.section, maxLength: 100, field: "\(field).section")
            valid.append(checked)
        }
        return valid
    }

    static func check(description: String?) throws(SavryDomainError) {
        try check(text: description, maxLength: maximumDescriptionLength, field: "description")
    }

    static func check(instructions: [String]) throws(SavryDomainError) {
        guard instructions.count <= maximumInstructions else { throw .invalid(field: "instructions", reason: "must hold at most \(maximumInstructions) steps") }
        for (index, step) in instructions.enumerated() {
            try check(nonBlank: step, maxLength: maximumInstructionLength, field: "instructions[\(index)]")
        }
    }

    static func check(dietaryTags: [String]?) throws(SavryDomainError) {
        guard let dietaryTags else { return }
        guard dietaryTags.count <= maximumDietaryTags else { throw .invalid(field: "dietaryTags", reason: "must hold at most \(maximumDietaryTags) tags") }
        for (index, tag) in dietaryTags.enumerated() {
            try check(nonBlank: tag, maxLength: maximumTagLength, field: "dietaryTags[\(index)]")
        }
    }

    /// An absolute `http` or `https` URL naming a host (`WebAddress`): the app loads it as an image.
    static func check(imageUrl: String?) throws(SavryDomainError) {
        guard let imageUrl else { return }
        try check(text: imageUrl, maxLength: maximumImageUrlLength, field: "imageUrl")
        guard WebAddress.isHTTP(imageUrl) else { throw .invalid(field: "imageUrl", reason: "must be an http or https URL") }
    }

    static func check(_ value: Int?, in range: ClosedRange<Int>, field: String) throws(SavryDomainError) {
        guard let value else { return }
        guard range.contains(value) else { throw .invalid(field: field, reason: "must be a whole number from \(range.lowerBound) to \(range.upperBound)") }
    }

    static func check(_ value: Double?, in range: ClosedRange<Double>, field: String) throws(SavryDomainError) {
        guard let value else { return }
        guard value.isFinite, range.contains(value) else {
            throw .invalid(field: field, reason: "must be a number from \(Int(range.lowerBound)) to \(Int(range.upperBound))")
        }
    }

    static func check(nonBlank text: String, maxLength: Int, field: String) throws(SavryDomainError) {
        guard !text.trimmingBlanks.isEmpty else { throw .invalid(field: field, reason: "must not be blank") }
        try check(text: text, maxLength: maxLength, field: field)
    }

    /// Free text of 1–50 characters: a blank one says nothing a `null` would not.
    static func check(difficulty: String?) throws(SavryDomainError) {
        try check(text: difficulty, maxLength: 50, field: "difficulty")
        if difficulty?.trimmingBlanks.isEmpty == true { throw .invalid(field: "difficulty", reason: "must be 1–50 characters, not blank (null for none)") }
    }

    /// A character as a user sees it may be several code points (an emoji family is seven), but a
    /// cap counted in characters alone let 200,000 combining accents pass as one: at most eight each.
    static func fitsScalars(_ text: String, characters: Int) -> Bool {
        text.unicodeScalars.count <= 8 * characters
    }

    static func check(text: String?, maxLength: Int, field: String) throws(SavryDomainError) {
        guard let text else { return }
        guard text.count <= maxLength, fitsScalars(text, characters: maxLength) else { throw .invalid(field: field, reason: "must be at most \(maxLength) characters") }
        if let bad = StorableText.firstRefusedCharacter(in: text) {
            throw .invalid(field: field, reason: "must not contain control characters (found \(bad))")
        }
    }
}

extension String {
    /// Without leading and trailing white space and newlines.
    var trimmingBlanks: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
