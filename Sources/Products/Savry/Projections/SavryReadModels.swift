import ReadModels
import SavryDomain

/// Savry's read database and runner: the engine's, over Savry's projections and events.
public typealias SavryRunner = ProjectionRunner<SavryCatalog>

/// Every read model Savry serves, in the order they are applied to each event.
public enum SavryReadModels {
    public static let all: [any Projection<SavryEvent>] = [RecipesProjection(), SignedOutTokensProjection()]
}
