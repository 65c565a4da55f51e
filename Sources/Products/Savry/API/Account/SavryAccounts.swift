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

    public init(stores: ProductStores<SavryProduct>, readYourWrites: ReadYourWrites) {
        erasure = UserErasure(stores: stores, readYourWrites: readYourWrites)
        export = PersonalDataExport(stores: stores)
    }

    /// Records `user-erased` for `userId`, destroys their data key, and waits until the read models
    /// have dropped their recipes; returns the erasure's log position. Throws `UserErasureFailure`
    /// for an unknown or already erased user.
    public func erase(_ userId: Int64, initiator: UserErased.Initiator) async throws -> UInt64 {
        try await erasure.erase(userId, initiator: initiator).position
    }
}
