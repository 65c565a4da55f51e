import EventSourcing
import Foundation
import SavryDomain

/// The demo's users and their recipes: dev sign-ins `ana`, `ben` and `chloe`, four recipes each.
/// Seeding is idempotent: a user is registered once per identity, and each recipe is created under
/// an event id derived from its owner and slug, so seeding again records nothing. A demo cook who
/// deleted their account stays deleted: their identity was claimed once, so they are not seeded
/// again (their recipes' event ids are taken by the erased ones).
public enum SavryDemoSeed {
    /// Seeds `commands`' log and returns how many events it recorded (0 when seeded before). Meant
    /// for start-up, before serving: the count is the log head's advance.
    @discardableResult
    public static func run(into commands: SavryCommandService) async throws -> Int {
        let before = commands.store.log.headPosition
        for (user, recipes) in DemoRecipes.byUser {
            let identity = SavryIdentity(provider: .dev, subject: user)
            if try commands.existingUser(identity) == nil, try wasClaimed(identity, in: commands.store) { continue }
            let signIn = try await commands.signIn(identity)
            for (slug, fields) in recipes {
                _ = try await commands.createRecipe(fields, by: signIn.userId, eventId: SavryCatalog.derivedEventId(from: "demo:\(user):\(slug)"))
            }
        }
        return Int(commands.store.log.headPosition - before)
    }

    /// Whether anyone ever claimed `identity` (under its hashed stream or, in a log from before, its
    /// named one).
    private static func wasClaimed(_ identity: SavryIdentity, in store: SavryStore) throws -> Bool {
        try store.streamExists(identity.signInIdentity.stream) || store.streamExists(identity.signInIdentity.legacyStream)
    }
}
