import EventSourcing

/// A command Savry refuses, in its own terms. The API maps each to a response.
public enum SavryDomainError: DecisionRefusal, Equatable, Sendable {
    /// No such recipe, or it was deleted.
    case recipeNotFound(recipeId: String)
    /// The recipe is another user's.
    case notOwner(recipeId: String)
    case userNotFound(userId: Int64)
    /// A new recipe's id is already taken (only a clash of derived ids can do this).
    case recipeExists(recipeId: String)
    case invalid(field: String, reason: String)
}
