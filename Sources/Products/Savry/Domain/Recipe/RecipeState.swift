import EventSourcing

/// A recipe as its stream leaves it: nothing yet, live with its owner and fields, without content
/// because its owner was erased, or deleted.
public enum RecipeState: EventFold, Equatable {
    case none
    case live(owner: Int64, fields: RecipeFields)
    /// Its owner was erased: its content reads as absent, and it is gone from every read. Nothing can
    /// be done to it (no one is its owner any more).
    case erased(owner: Int64)
    case deleted(owner: Int64)

    public typealias Event = SavryEvent

    public init() {
        self = .none
    }

    public mutating func evolve(_ event: SavryEvent) {
        // A second create, an edit of a recipe not live, a second delete: no command records them.
        switch (self, event) {
        case (.none, .recipeCreated(let created)):
            self = created.fields.map { .live(owner: created.userId, fields: $0) } ?? .erased(owner: created.userId)
        case (.live, .recipeCreated), (.erased, .recipeCreated), (.deleted, .recipeCreated):
            break
        case (.live(let owner, let fields), .recipeUpdated(let updated)):
            self = updated.changes.map { .live(owner: owner, fields: $0.applied(to: fields)) } ?? .erased(owner: owner)
        case (.none, .recipeUpdated), (.erased, .recipeUpdated), (.deleted, .recipeUpdated):
            break
        case (.live(let owner, _), .recipeDeleted), (.erased(let owner), .recipeDeleted):
            self = .deleted(owner: owner)
        case (.none, .recipeDeleted), (.deleted, .recipeDeleted):
            break
        case (_, .identityClaimed), (_, .userRegistered), (_, .signedOut), (_, .userErased):
            break
        }
    }
}

extension RecipeState {
    /// A live recipe's text: the bulk of what keeping its state costs.
    public var retainedBytes: Int {
        guard case .live(_, let fields) = self else { return MemoryLayout<Self>.size }
        let texts = [fields.name, fields.description, fields.difficulty, fields.cuisine, fields.imageUrl].compactMap { $0 }
            + fields.instructions + (fields.dietaryTags ?? [])
            + fields.ingredients.flatMap { [$0.name, $0.quantity, $0.unit, $0.store, $0.aisle, $0.section].compactMap { $0 } }
        return MemoryLayout<Self>.size + fields.ingredients.count * MemoryLayout<RecipeIngredient>.size + heapBytes(of: texts)
    }
}
