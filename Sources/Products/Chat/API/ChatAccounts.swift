import ChatProjections
import EventSourcing
import PersonalData
import ProductHosting
import ReadModels

/// Erasing chat accounts: the engine's `UserErasure` over the chat stores, then the user's uploaded
/// files deleted (their key is already destroyed, so nothing could open them; this frees the space).
public struct ChatAccounts: Sendable {
    let erasure: UserErasure<ChatProduct>
    let files: SealedFiles

    public init(stores: ProductStores<ChatProduct>, files: SealedFiles, readYourWrites: ReadYourWrites) {
        erasure = UserErasure(stores: stores, readYourWrites: readYourWrites)
        self.files = files
    }

    /// Records `user-erased`, destroys the data key, waits until the read models have dropped the
    /// user's sessions and tokens, and deletes their files; returns the erasure's log position.
    public func erase(_ userId: Int64, initiator: UserErased.Initiator) async throws -> UInt64 {
        let position = try await erasure.erase(userId, initiator: initiator).position
        try files.removeAll(of: userId)
        return position
    }
}
