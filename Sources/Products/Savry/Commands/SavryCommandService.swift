import EventLog
import EventSourcing
import Foundation
import SavryDomain

/// Runs Savry's commands: load the stream a decision depends on, decide, append with the version it
/// was decided against, and retry from the load when another writer got there first. The store seals
/// what is appended and opens what is read with the key store's keys.
public struct SavryCommandService: Sendable {
    public let store: SavryStore
    private let registration: UserRegistration<SavryCatalog>

    public init(store: SavryStore) {
        self.store = store
        registration = UserRegistration(store: store, userStreamPrefix: SavryStreams.userPrefix) { event in
            if case .identityClaimed(let claim) = event { claim.userId } else { nil }
        }
    }

    // MARK: Identity

    public typealias SignIn = UserRegistration<SavryCatalog>.SignIn

    /// The user behind `identity`, registering a new one the first time it signs in, and again after
    /// its user was erased (a new id, nothing of the old account).
    public func signIn(_ identity: SavryIdentity) async throws -> SignIn {
        try await registration.signIn(identity.signInIdentity) { userId in
            let (claimed, registered) = try Registration.decide(identity: identity, userId: userId)
            return (.identityClaimed(claimed), .userRegistered(registered))
        }
    }

    /// The user who holds `identity`, if anyone does (an erased user holds nothing).
    public func existingUser(_ identity: SavryIdentity) throws -> SignIn? {
        try registration.existingUser(identity.signInIdentity)
    }

    /// Registered, erased or not.
    public func userExists(_ userId: Int64) throws -> Bool {
        try registration.userExists(userId)
    }

    /// Registered and not erased: the users whose tokens open anything.
    public func isActive(_ userId: Int64) throws -> Bool {
        try registration.isActive(userId)
    }

    /// Signs the user out of one token (`SignedOut`): recorded on their stream, once per token.
    public func signOut(_ userId: Int64, tokenId: String, expiresAt: Int64) async throws -> CommandResult {
        try await asActiveUser(userId) {
            try await store.append(
                [.signedOut(SignedOut(userId: userId, tokenId: tokenId, expiresAt: expiresAt))], to: SavryStreams.user(userId),
                eventId: SavryCatalog.derivedEventId(from: "signed-out:\(userId):\(tokenId)")
            )
        }
    }

    // MARK: Recipes

    /// A new recipe, named after `eventId`: a create retried under the same id records nothing new
    /// and answers the same recipe.
    public func createRecipe(_ fields: RecipeFields, by userId: Int64, eventId: UUID = .timeOrdered()) async throws -> (recipeId: String, result: CommandResult) {
        let recipeId = RecipeId.of(creation: eventId)
        let result = try await asActiveUser(userId) {
            try await store.decideAndAppend(SavryStreams.recipe(recipeId), as: RecipeState.self, eventId: eventId) { state in
                try RecipeDecisions.create(recipeId, by: userId, fields: fields, state: state)
            }
        }
        return (recipeId, result)
    }

    public func updateRecipe(_ recipeId: String, changes: RecipeChanges, by userId: Int64, eventId: UUID = .timeOrdered()) async throws -> CommandResult {
        let stream = try stream(of: recipeId)
        return try await asActiveUser(userId) {
            try await store.decideAndAppend(stream, as: RecipeState.self, eventId: eventId) { state in
                try RecipeDecisions.update(recipeId, by: userId, changes: changes, state: state)
            }
        }
    }

    public func deleteRecipe(_ recipeId: String, by userId: Int64, eventId: UUID = .timeOrdered()) async throws -> CommandResult {
        let stream = try stream(of: recipeId)
        return try await asActiveUser(userId) {
            try await store.decideAndAppend(stream, as: RecipeState.self, eventId: eventId) { state in
                try RecipeDecisions.delete(recipeId, by: userId, state: state)
            }
        }
    }

    /// A signed token is no proof that its user exists or was not erased since: every command checks
    /// first. An erasure landing while the command runs makes sealing its content fail (an erased
    /// user's key is never made again), or the recipe read as gone; either way the answer is that
    /// the user is gone (401), not that the recipe is (404).
    private func asActiveUser<T>(_ userId: Int64, _ command: () async throws -> T) async throws -> T {
        guard try isActive(userId) else { throw SavryDomainError.userNotFound(userId: userId) }
        do {
            return try await command()
        } catch {
            // Erased while it ran: its recipes read as gone, but what the caller must hear is that they are.
            if try !isActive(userId) { throw SavryDomainError.userNotFound(userId: userId) }
            throw error
        }
    }

    /// An id that could not be a recipe's names none; it is not looked up.
    private func stream(of recipeId: String) throws -> String {
        guard RecipeId.isWellFormed(recipeId) else { throw SavryDomainError.recipeNotFound(recipeId: recipeId) }
        return SavryStreams.recipe(recipeId)
    }
}
