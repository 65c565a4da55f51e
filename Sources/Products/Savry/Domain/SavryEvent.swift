import EventSourcing

/// Every fact Savry records. Projections and decisions switch over this; `SavryCatalog` maps it to
/// and from the log.
public enum SavryEvent: Sendable, Equatable {
    case identityClaimed(IdentityClaimed)
    case userRegistered(UserRegistered)
    case recipeCreated(RecipeCreated)
    case recipeUpdated(RecipeUpdated)
    case recipeDeleted(RecipeDeleted)

    /// The fact itself, whichever it is: what the catalog writes.
    public var payload: any SavryEventPayload {
        switch self {
        case .identityClaimed(let e): e
        case .userRegistered(let e): e
        case .recipeCreated(let e): e
        case .recipeUpdated(let e): e
        case .recipeDeleted(let e): e
        }
    }

    /// The user whose action this is. Every Savry event is one user's own.
    public var actorUserId: Int64 {
        switch self {
        case .identityClaimed(let e): e.userId
        case .userRegistered(let e): e.userId
        case .recipeCreated(let e): e.userId
        case .recipeUpdated(let e): e.userId
        case .recipeDeleted(let e): e.userId
        }
    }
}

/// A Savry event payload, which knows the case of `SavryEvent` it is.
public protocol SavryEventPayload: EventPayload {
    var event: SavryEvent { get }
}
