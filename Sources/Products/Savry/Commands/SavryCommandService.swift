import EventLog
import EventSourcing
import Foundation
import SavryDomain

/// Runs Savry's commands: load the stream a decision depends on, decide, append with the version it
/// was decided against, and retry from the load when another writer got there first.
public struct SavryCommandService: Sendable {
    public let store: SavryStore
    private let registration: UserRegistration<SavryCatalog>

    public init(log: EventLog) {
        store = SavryStore(log: log)
        registration = UserRegistration(store: store, userStreamPrefix: SavryStreams.userPrefix) { event in
            if case .identityClaimed(let claim) = event { claim.userId } else { nil }
        }
    }

    // MARK: Identity

    public typealias SignIn = UserRegistration<SavryCatalog>.SignIn

    /// The user behind `identity`, registering a new one the first time it signs in.
    public func signIn(_ identity: SavryIdentity) async throws -> SignIn {
        try await registration.signIn(identityStream: SavryStreams.identity(identity)) { userId in
            let (claimed, registered) = try Registration.decide(identity: identity, userId: userId)
            return (.identityClaimed(claimed), .userRegistered(registered))
        }
    }

    /// The user who claimed `identity`, if anyone has.
    public func existingUser(_ identity: SavryIdentity) throws -> SignIn? {
        try registration.existingUser(identityStream: SavryStreams.identity(identity))
    }

    public func userExists(_ userId: Int64) throws -> Bool {
        try registration.userExists(userId)
    }

    // MARK: Recipes

    /// A new recipe, named after `eventId`: a create retried under the same id records nothing new
    /// and answers the same recipe.
    public func createRecipe(_ fields: RecipeFields, by userId: Int64, eventId: UUID = .timeOrdered()) async throws -> (recipeId: String, result: CommandResult) {
        try requireUser(userId)
        let recipeId = RecipeId.of(creation: eventId)
        let result = try await store.decideAndAppend(SavryStreams.recipe(recipeId), eventId: eventId) { events in
            try RecipeDecisions.create(recipeId, by: userId, fields: fields, state: RecipeState.fold(events))
        }
        return (recipeId, result)
    }

    public func updateRecipe(_ recipeId: String, changes: RecipeChanges, by userId: Int64, eventId: UUID = .timeOrdered()) async throws -> CommandResult {
        try requireUser(userId)
        return try await store.decideAndAppend(try stream(of: recipeId), eventId: eventId) { events in
            try RecipeDecisions.update(recipeId, by: userId, changes: changes, state: RecipeState.fold(events))
        }
    }

    public func deleteRecipe(_ recipeId: String, by userId: Int64, eventId: UUID = .timeOrdered()) async throws -> CommandResult {
        try requireUser(userId)
        return try await store.decideAndAppend(try stream(of: recipeId), eventId: eventId) { events in
            try RecipeDecisions.delete(recipeId, by: userId, state: RecipeState.fold(events))
        }
    }

    /// A signed token is no proof that its user exists: every command checks.
    private func requireUser(_ userId: Int64) throws {
        guard try userExists(userId) else { throw SavryDomainError.userNotFound(userId: userId) }
    }

    /// An id that could not be a recipe's names none; it is not looked up.
    private func stream(of recipeId: String) throws -> String {
        guard RecipeId.isWellFormed(recipeId) else { throw SavryDomainError.recipeNotFound(recipeId: recipeId) }
        return SavryStreams.recipe(recipeId)
    }
}
