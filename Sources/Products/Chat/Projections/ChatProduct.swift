import ChatDomain
import ReadModels

/// The chat product as the engine hosts it: its events and its projections.
public enum ChatProduct: EventSourcedProduct {
    public typealias Catalog = ChatCatalog
    public static let name = "chat"
    public static var projections: [any Projection<ChatEvent>] { ChatReadModels.all }
    public static func userStream(_ userId: Int64) -> String { ChatStreams.user(userId) }
    /// The password hash is the user's, but a copy of it outside the server serves no one.
    public static var withheldFromExport: Set<String> { ["passwordHash"] }
}

public typealias ChatRunner = ProjectionRunner<ChatCatalog>

/// Every read model the chat product serves, in the order they are applied to each event.
public enum ChatReadModels {
    public static let all: [any Projection<ChatEvent>] = [AccountsProjection(), SessionsProjection()]
}
