import ChatProjections
import EventSourcing
import ProductHosting
import ReadModels

/// Erasing chat accounts: the engine's `UserErasure` over the chat stores (which deletes the user's
/// uploaded files with their key).
public struct ChatAccounts: Sendable {
    let erasure: UserErasure<ChatProduct>

    public init(stores: ProductStores<ChatProduct>, readYourWrites: ReadYourWrites) {
        erasure = UserErasure(stores: stores, readYourWrites: readYourWrites)
    }

    /// Records `user-erased`, destroys the data key and the user's files, and waits until the read
    /// models have dropped the user's sessions and tokens; returns the erasure's log position.
    public func erase(_ userId: Int64, initiator: UserErased.Initiator) async throws -> UInt64 {
        try await erasure.erase(userId, initiator: initiator).position
    }
}
