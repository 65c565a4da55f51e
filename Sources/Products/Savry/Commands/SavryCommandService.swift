import EventLog
import EventSourcing
import Foundation
import SavryDomain

/// Runs Savry's commands: load the stream a decision depends on, decide, append with the version it
/// was decided against, and retry from the load when another writer got there first.
public struct SavryCommandService: Sendable {
    public let store: SavryStore
    private let userIds: UserIdAllocator
    private static let maximumAttempts = 5

    public init(log: EventLog) {
        store = SavryStore(log: log)
        userIds = UserIdAllocator(log: log, userStreamPrefix: SavryStreams.userPrefix)
    }

    // MARK: Identity

    public struct SignIn: Sendable, Equatable {
        public var userId: Int64
        public var isNewUser: Bool
        public var position: UInt64
    }

    /// The user behind `identity`, registering a new one the first time it signs in. The identity's
    /// stream takes one claim (`noStream`), so two first sign-ins at once register one user; the
    /// new user's stream takes one registration, so two registrations never share an id.
    public func signIn(_ identity: SavryIdentity) async throws -> SignIn {
        let identityStream = SavryStreams.identity(identity)
        for _ in 0..<Self.maximumAttempts {
            if let existing = try existingUser(identity) { return existing }
            let userId = try await userIds.next()
            let (claimed, registered) = try Registration.decide(identity: identity, userId: userId)
            do {
                let result = try await store.log.append([
                    StreamAppend(streamId: identityStream, expectedVersion: .noStream, events: [try SavryCatalog.newEvent(.identityClaimed(claimed))]),
                    StreamAppend(streamId: SavryStreams.user(userId), expectedVersion: .noStream, events: [try SavryCatalog.newEvent(.userRegistered(registered))]),
                ])
                return SignIn(userId: userId, isNewUser: true, position: result.lastPosition)
            } catch EventLogError.wrongExpectedVersion(let stream, _, _) where stream != identityStream {
                await userIds.reset()
            } catch EventLogError.wrongExpectedVersion {
                continue
            }
        }
        throw CommandError.tooMuchContention
    }

    /// The user who claimed `identity`, if anyone has.
    public func existingUser(_ identity: SavryIdentity) throws -> SignIn? {
        for recorded in try store.readStream(SavryStreams.identity(identity)).events {
            if case .identityClaimed(let claim) = recorded.event {
                return SignIn(userId: claim.userId, isNewUser: false, position: recorded.position)
            }
        }
        return nil
    }

    public func userExists(_ userId: Int64) throws -> Bool {
        try store.streamExists(SavryStreams.user(userId))
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
