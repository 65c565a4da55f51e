import EventLog
import EventSourcing
import Foundation
import ProductHosting
import SavryCommands
import SavryDomain
import Testing

@Suite(.timeLimit(.minutes(3))) struct SavryCommandTests {
    @Test func anIdentityIsOneUserHoweverManySignInsRaceForIt() async throws {
        let storage = try await SavryStorage()
        let commands = storage.commands
        let identities = ["ana", "ben", "chloe"].map { SavryIdentity(provider: .dev, subject: $0) }
        let signIns = try await withThrowingTaskGroup(of: (SavryIdentity, Int64).self) { group in
            for _ in 0..<4 {
                for identity in identities { group.addTask { (identity, try await commands.signIn(identity).userId) } }
            }
            return try await group.reduce(into: [(SavryIdentity, Int64)]()) { $0.append($1) }
        }
        let byIdentity = Dictionary(grouping: signIns, by: \.0).mapValues { Set($0.map(\.1)) }
        #expect(byIdentity.values.allSatisfy { $0.count == 1 })
        #expect(Set(byIdentity.values.flatMap { $0 }).count == 3)
        #expect(storage.log.headPosition == 6)
        #expect(try await commands.signIn(SavryIdentity(provider: .apple, subject: "ana")).isNewUser)
    }

    @Test func aCreateRetriedUnderItsEventIdRecordsOnceAndADifferentOneUnderItIsRefused() async throws {
        let storage = try await SavryStorage()
        let user = try await storage.commands.signIn(SavryIdentity(provider: .dev, subject: "ana")).userId
        let id = UUID()
        let first = try await storage.commands.createRecipe(RecipeFields(name: "Toast"), by: user, eventId: id)
        let head = storage.log.headPosition
        let again = try await storage.commands.createRecipe(RecipeFields(name: "Toast"), by: user, eventId: id)
        #expect(again.recipeId == first.recipeId && again.result.position == first.result.position)
        #expect(storage.log.headPosition == head)
        await #expect(throws: EventLogError.self) { try await storage.commands.createRecipe(RecipeFields(name: "Jam"), by: user, eventId: id) }
        #expect(storage.log.headPosition == head)
    }

    @Test func anUnregisteredUserCannotWrite() async throws {
        let storage = try await SavryStorage()
        await #expect(throws: SavryDomainError.userNotFound(userId: 7)) { try await storage.commands.createRecipe(RecipeFields(name: "Toast"), by: 7) }
        #expect(storage.log.headPosition == 0)
    }

    /// Erasures of one user asked at once (two operators, or the user and an operator): one records
    /// `user-erased`, the others find the user erased.
    @Test func erasuresAskedAtOnceRecordOneErasure() async throws {
        let storage = try await SavryStorage()
        let user = try await storage.commands.signIn(SavryIdentity(provider: .apple, subject: "001.twice")).userId
        let erasure = UserErasure(stores: storage.stores, runner: storage.runner)
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    do { _ = try await erasure.erase(user, initiator: .operator); return true } catch { return false }
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1, "\(outcomes)")
        let erased = try storage.store.readStream(SavryStreams.user(user)).events.filter {
            if case .userErased = $0.event { true } else { false }
        }
        #expect(erased.count == 1)
    }

    @Test func anErasedUserCannotWriteAndTheirIdentitySignsInAsANewUser() async throws {
        let storage = try await SavryStorage()
        let identity = SavryIdentity(provider: .apple, subject: "001.erased")
        let user = try await storage.commands.signIn(identity).userId
        let (recipeId, _) = try await storage.commands.createRecipe(RecipeFields(name: "Toast"), by: user)
        _ = try await UserErasure(stores: storage.stores, runner: storage.runner).erase(user, initiator: .user)
        #expect(try !storage.commands.isActive(user) && storage.commands.userExists(user))
        await #expect(throws: SavryDomainError.userNotFound(userId: user)) { try await storage.commands.createRecipe(RecipeFields(name: "Jam"), by: user) }
        await #expect(throws: SavryDomainError.userNotFound(userId: user)) {
            try await storage.commands.updateRecipe(recipeId, changes: RecipeChanges(name: "Jam"), by: user)
        }
        #expect(try storage.commands.existingUser(identity) == nil)
        let again = try await storage.commands.signIn(identity)
        #expect(again.isNewUser && again.userId != user)
        // Nobody can act on the erased user's recipe any more: it has no content and no owner.
        await #expect(throws: SavryDomainError.recipeNotFound(recipeId: recipeId)) {
            try await storage.commands.deleteRecipe(recipeId, by: again.userId)
        }
    }

    @Test func aRetriedUpdateAnswersAsTheFirstAndRecordsNothing() async throws {
        let storage = try await SavryStorage()
        let user = try await storage.commands.signIn(SavryIdentity(provider: .dev, subject: "ana")).userId
        let (recipeId, _) = try await storage.commands.createRecipe(RecipeFields(name: "Toast"), by: user)
        let id = UUID()
        let first = try await storage.commands.updateRecipe(recipeId, changes: RecipeChanges(description: .some("Crisp")), by: user, eventId: id)
        let head = storage.log.headPosition
        let again = try await storage.commands.updateRecipe(recipeId, changes: RecipeChanges(description: .some("Crisp")), by: user, eventId: id)
        #expect(again.position == first.position && storage.log.headPosition == head)
        await #expect(throws: EventLogError.self) {
            try await storage.commands.updateRecipe(recipeId, changes: RecipeChanges(description: .some("Soggy")), by: user, eventId: id)
        }
        #expect(storage.log.headPosition == head)
    }

    @Test func seedingTwiceRecordsTheDemoOnce() async throws {
        let storage = try await SavryStorage()
        let first = try await SavryDemoSeed.run(into: storage.commands)
        #expect(first == 3 * 2 + 12)
        #expect(try await SavryDemoSeed.run(into: storage.commands) == 0)
        let recipes = try storage.events(after: 0).compactMap { event -> RecipeCreated? in
            if case .recipeCreated(let created) = event { created } else { nil }
        }
        #expect(Dictionary(grouping: recipes, by: \.userId).mapValues(\.count) == [1: 4, 2: 4, 3: 4])
    }

    @Test func aDemoCookWhoDeletedTheirAccountIsNotSeededAgain() async throws {
        let storage = try await SavryStorage()
        try await SavryDemoSeed.run(into: storage.commands)
        let ana = try #require(try storage.commands.existingUser(SavryIdentity(provider: .dev, subject: "ana"))).userId
        _ = try await UserErasure(stores: storage.stores, runner: storage.runner).erase(ana, initiator: .user)
        #expect(try await SavryDemoSeed.run(into: storage.commands) == 0)
        #expect(try storage.commands.existingUser(SavryIdentity(provider: .dev, subject: "ana")) == nil)
    }
}
