/// A part of the read models that answers are remembered from, as a product names it (a user, a
/// film): a fold that touches it makes what was remembered from it stale, while folds that touch
/// only other parts leave it standing.
public struct ReadScope: Hashable, Sendable {
    public var kind: String
    public var id: Int64

    public init(kind: String, id: Int64) {
        self.kind = kind
        self.id = id
    }

    /// What a user did or was the subject of: their own rows, and what their friends see of them.
    public static func user(_ id: Int64) -> ReadScope { ReadScope(kind: "user", id: id) }
}

/// The parts of the read models an event changes.
public enum ReadScopes: Sendable, Equatable {
    /// These parts, and no other a remembered answer names.
    case only([ReadScope])
    /// Anything at all (an erasure takes a user's rows out of every film's figures).
    case everything
}
