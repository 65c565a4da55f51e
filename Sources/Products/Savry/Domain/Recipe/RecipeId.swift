import Foundation

/// Recipe ids: the lowercase UUID of the event that created the recipe, so a create retried under
/// the same event id names the same recipe.
public enum RecipeId {
    public static func of(creation eventId: UUID) -> String {
        eventId.uuidString.lowercased()
    }

    /// Whether `text` could be a recipe id at all; anything else names no recipe.
    public static func isWellFormed(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count) && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2D }
    }
}
