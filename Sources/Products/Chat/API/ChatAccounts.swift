import ChatProjections
import EventSourcing
import ProductHosting
import ReadModels

/// Erasing and exporting chat accounts: the engine's `UserErasure` (which deletes the user's
/// uploaded files with their key) and `PersonalDataExport` over the chat stores.
public struct ChatAccounts: Sendable {
    let erasure: UserErasure<ChatProduct>
    let export: PersonalDataExport<ChatProduct>

    public init(stores: ProductStores<ChatProduct>, readYourWrites: ReadYourWrites) {
        erasure = UserErasure(stores: stores, readYourWrites: readYourWrites)
        export = PersonalDataExport(stores: stores)
    }

    /// Records `user-erased`, destroys the data key and the user's files, and waits until the read
    /// models have dropped the user's sessions and tokens; returns the erasure's log position.
    public func erase(_ userId: Int64, initiator: UserErased.Initiator) async throws -> UInt64 {
        try await erasure.erase(userId, initiator: initiator).position
    }
}
