import EventSourcing
import ReadModels
import Foundation
import Metrics
import PersonalData

/// Erasing a user's account: a `user-erased` event on their stream, durable, then their data key
/// destroyed, so everything personal they ever wrote reads as absent: in the log, in every copy and
/// backup of it, in every read model folded from it. The event comes first: if the process stops
/// before the key is gone, the next start destroys it (`ProductStores.reconcileErasures`).
public struct UserErasure<Product: EventSourcedProduct>: Sendable {
    public typealias Failure = UserErasureFailure

    let store: EventStore<Product.Catalog>
    let keys: KeyStore
    private let erasures = Counter(label: "engine_user_erasures_total")

    public init(stores: ProductStores<Product>) {
        store = stores.store
        keys = stores.keys
    }

    /// Appends the erasure and destroys the key; returns where the erasure is in the log, for
    /// read-your-writes.
    public func erase(_ userId: Int64, initiator: UserErased.Initiator) async throws -> CommandResult {
        guard try !keys.isDestroyed(userId) else { throw Failure.alreadyErased(userId) }
        let erasure = Product.Catalog.userErased(UserErased(userId: userId, initiator: initiator))
        let result = try await store.decideAndAppend(Product.userStream(userId), eventId: .timeOrdered()) { events in
            guard !events.isEmpty else { throw Failure.unknownUser(userId) }
            return [erasure]
        }
        try keys.applyErasures([KeyStore.Erasure(userId: userId, position: result.position)])
        store.forgetDecodedStreams()
        erasures.increment()
        return result
    }
}

public enum UserErasureFailure: Error, Equatable, Sendable {
    case unknownUser(Int64)
    case alreadyErased(Int64)
}
