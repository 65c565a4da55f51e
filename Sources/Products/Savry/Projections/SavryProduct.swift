import ReadModels
import SavryDomain

/// Savry as the engine hosts it: its events and its projections.
public enum SavryProduct: EventSourcedProduct {
    public typealias Catalog = SavryCatalog
    public static let name = "savry"
    public static var projections: [any Projection<SavryEvent>] { SavryReadModels.all }
    public static func userStream(_ userId: Int64) -> String { SavryStreams.user(userId) }
}
