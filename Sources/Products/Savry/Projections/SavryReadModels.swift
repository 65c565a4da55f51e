import GRDB
import ReadModels
import SavryDomain

/// Savry's read database and runner: the engine's, over Savry's projections and events.
public typealias SavryRunner = ProjectionRunner<SavryCatalog>

/// Every read model Savry serves, in the order they are applied to each event.
public enum SavryReadModels {
    public static let all: [any Projection<SavryEvent>] = [RecipesProjection()]
}

extension SavryReadModels {
    /// Checkpoints the read database's WAL into its file and truncates it. After an erasure the
    /// deleted rows are zeroed in the file (`secure_delete`), but the WAL still holds the pages as
    /// they were, the erased user's recipes in clear, until this. Throws when readers hold the WAL
    /// past the busy timeout.
    public static func truncateWAL(of database: ReadDatabase) async throws {
        try await database.pool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
    }
}
