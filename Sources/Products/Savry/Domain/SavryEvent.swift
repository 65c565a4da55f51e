import EventSourcing

/// Every fact Savry records. Projections and decisions switch over this; `SavryCatalog` maps it to
/// and from the log.
public enum SavryEvent: Sendable, Equatable {
    case identityClaimed(IdentityClaimed)
    case userRegistered(UserRegistered)
    case recipeCreated(RecipeCreated)
    case recipeUpdated(RecipeUpdated)
    case recipeDeleted(RecipeDeleted)
    case signedOut(SignedOut)
    /// The engine's erasure event, registered as Savry's own.
    case userErased(UserErased)

    /// The fact itself, whichever it is: what the catalog writes.
    public var payload: any SavryEventPayload {
        switch self {
        case .identityClaimed(let e): e
        case .userRegistered(let e): e
        case .recipeCreated(let e): e
        case .recipeUpdated(let e): e
        case .recipeDeleted(let e): e
        case .signedOut(let e): e
        case .userErased(let e): e
        }
    }

    /// The user whose action this is, whose data key seals the event's personal fields. Every Savry
    /// event is one user's own, except an erasure an operator made (a support request), which is
    /// nobody's action: its user is its subject (`subjectUserIds`).
    public var actorUserId: Int64? {
        switch self {
        case .identityClaimed(let e): e.userId
        case .userRegistered(let e): e.userId
        case .recipeCreated(let e): e.userId
        case .recipeUpdated(let e): e.userId
        case .recipeDeleted(let e): e.userId
        case .signedOut(let e): e.userId
        case .userErased(let e): e.initiator == .user ? e.userId : nil
        }
    }

    /// Other users the event concerns: the user an operator (or a key-store reconciliation) erased,
    /// so that their audit shows it.
    public var subjectUserIds: [Int64] {
        switch self {
        case .userErased(let e) where e.initiator != .user: [e.userId]
        case .identityClaimed, .userRegistered, .recipeCreated, .recipeUpdated, .recipeDeleted, .signedOut, .userErased: []
        }
    }
}

extension UserErased: SavryEventPayload {
    public var event: SavryEvent { .userErased(self) }
}

/// A Savry event payload, which knows the case of `SavryEvent` it is.
public protocol SavryEventPayload: EventPayload {
    var event: SavryEvent { get }
}
