/// What each recipe command records, decided from the recipe's stream (`RecipeState`). Pure: the
/// command service loads the stream and appends what these return.
public enum RecipeDecisions {
    public static func create(_ recipeId: String, by userId: Int64, fields: RecipeFields, state: RecipeState) throws(SavryDomainError) -> [SavryEvent] {
        guard state == .none else { throw .recipeExists(recipeId: recipeId) }
        return [.recipeCreated(RecipeCreated(recipeId: recipeId, userId: userId, fields: try RecipeRules.validated(fields)))]
    }

    /// Records only the fields that differ from the recipe as it is; nothing when none do.
    public static func update(_ recipeId: String, by userId: Int64, changes: RecipeChanges, state: RecipeState) throws(SavryDomainError) -> [SavryEvent] {
        let current = try ownedFields(recipeId, by: userId, state: state)
        let changed = try RecipeRules.validated(changes).differing(from: current)
        return changed.isEmpty ? [] : [.recipeUpdated(RecipeUpdated(recipeId: recipeId, userId: userId, changes: changed))]
    }

    public static func delete(_ recipeId: String, by userId: Int64, state: RecipeState) throws(SavryDomainError) -> [SavryEvent] {
        _ = try ownedFields(recipeId, by: userId, state: state)
        return [.recipeDeleted(RecipeDeleted(recipeId: recipeId, userId: userId))]
    }

    /// A missing or deleted recipe is not found, whoever asks, nor one whose owner was erased (it is
    /// gone from every read); a live one of another user's is forbidden (the contract's 403).
    private static func ownedFields(_ recipeId: String, by userId: Int64, state: RecipeState) throws(SavryDomainError) -> RecipeFields {
        switch state {
        case .none, .deleted, .erased: throw .recipeNotFound(recipeId: recipeId)
        case .live(let owner, _) where owner != userId: throw .notOwner(recipeId: recipeId)
        case .live(_, let fields): return fields
        }
    }
}
