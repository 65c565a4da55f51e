import EventSourcing

/// A user wrote a new private recipe. Its id is the recipe's stream's name, and never reused.
public struct RecipeCreated: SavryEventPayload {
    public static let typeName = "recipe-created"
    public static let schemaVersion: UInt16 = 1

    public var recipeId: String
    public var userId: Int64
    /// Everything the owner wrote: personal, sealed whole under the owner's key; nil once the owner
    /// is erased (the recipe then has no content).
    @PersonalValue public var fields: RecipeFields?

    public init(recipeId: String, userId: Int64, fields: RecipeFields?) {
        self.recipeId = recipeId
        self.userId = userId
        self.fields = fields
    }

    public var event: SavryEvent { .recipeCreated(self) }
}

/// The owner changed some of a recipe's fields; `changes` holds only those that differ.
public struct RecipeUpdated: SavryEventPayload {
    public static let typeName = "recipe-updated"
    public static let schemaVersion: UInt16 = 1

    public var recipeId: String
    public var userId: Int64
    /// Personal, sealed whole under the owner's key; nil once the owner is erased.
    @PersonalValue public var changes: RecipeChanges?

    public init(recipeId: String, userId: Int64, changes: RecipeChanges?) {
        self.recipeId = recipeId
        self.userId = userId
        self.changes = changes
    }

    public var event: SavryEvent { .recipeUpdated(self) }
}

/// The owner deleted a recipe. It stays deleted: its id is not found from now on.
public struct RecipeDeleted: SavryEventPayload {
    public static let typeName = "recipe-deleted"
    public static let schemaVersion: UInt16 = 1

    public var recipeId: String
    public var userId: Int64

    public init(recipeId: String, userId: Int64) {
        self.recipeId = recipeId
        self.userId = userId
    }

    public var event: SavryEvent { .recipeDeleted(self) }
}
