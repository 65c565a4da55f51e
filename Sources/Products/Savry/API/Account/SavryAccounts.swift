import EventSourcing
import ProductHosting
import ReadModels
import SavryProjections

/// Erasing and exporting Savry accounts: the engine's `UserErasure` and `PersonalDataExport` over
/// Savry's stores. An erasure answers once the read models show it (read-your-writes), whoever asked
/// for it: the user (`DELETE /api/app/account`) or an operator (`POST /admin/users/{id}/erase`).
public struct SavryAccounts: Sendable {
    let erasure: UserErasure<SavryProduct>
    let export: PersonalDataExport<SavryProduct>
    let readYourWrites: ReadYourWrites
    let readDatabase: ReadDatabase

    public init(stores: ProductStores<SavryProduct>, readYourWrites: ReadYourWrites) {
        erasure = UserErasure(stores: stores)
        export = PersonalDataExport(stores: stores)
        self.readYourWrites = readYourWrites
        readDatabase = stores.readDatabase
    }

    /// Records `user-erased` for `userId`, destroys their data key, and waits until the read models
    /// have dropped their recipes; returns the erasure's log position. Throws `UserErasureFailure`
    /// for an unknown or already erased user.
    ///
    /// The rows are deleted with `secure_delete` (zeroed in the file), but the read database's WAL
    /// still holds the pages as they were, recipes in clear, until it is checkpointed and truncated,
    /// which is done here. When readers hold it off past the busy timeout the erasure stands all the
    /// same (the WAL is overwritten as the runner goes on, and truncated when the server stops).
    public func erase(_ userId: Int64, initiator: UserErased.Initiator) async throws -> UInt64 {
        let result = try await erasure.erase(userId, initiator: initiator)
        try await readYourWrites.wait(for: result.position)
        try? await SavryReadModels.truncateWAL(of: readDatabase)
        return result.position
    }
}
