import EventSourcing
import ReadModels

/// A product's accounts as its users and operators end them or ask for them: the engine's
/// `UserErasure` and `PersonalDataExport` over the product's stores. An erasure answers once the read
/// models show it (read-your-writes), whoever asked for it: the user or an operator.
public struct UserAccounts<Product: EventSourcedProduct>: Sendable {
    public let erasure: UserErasure<Product>
    public let export: PersonalDataExport<Product>

    public init(stores: ProductStores<Product>, readYourWrites: ReadYourWrites) {
        erasure = UserErasure(stores: stores, readYourWrites: readYourWrites)
        export = PersonalDataExport(stores: stores)
    }

    /// Records `user-erased` for `userId`, destroys their data key (and their uploads, for a product
    /// that keeps them), and waits until the read models have dropped their rows; returns the
    /// erasure's log position. Throws `UserErasureFailure` for an unknown or already erased user.
    public func erase(_ userId: Int64, initiator: UserErased.Initiator) async throws -> UInt64 {
        try await erasure.erase(userId, initiator: initiator).position
    }
}
