import EventSourcing

/// A recipe as its stream leaves it: nothing yet, live with its owner and fields, or deleted.
public enum RecipeState: Sendable, Equatable {
    case none
    case live(owner: Int64, fields: RecipeFields)
    case deleted(owner: Int64)

    public static func fold(_ events: [Recorded<SavryEvent>]) -> RecipeState {
        fold(events.map(\.event))
    }

    public static func fold(_ events: [SavryEvent]) -> RecipeState {
        events.reduce(.none) { state, event in
            switch (state, event) {
            case (.none, .recipeCreated(let created)): .live(owner: created.userId, fields: created.fields)
            case (.live(let owner, let fields), .recipeUpdated(let updated)): .live(owner: owner, fields: updated.changes.applied(to: fields))
            case (.live(let owner, _), .recipeDeleted): .deleted(owner: owner)
            default: state
            }
        }
    }
}
