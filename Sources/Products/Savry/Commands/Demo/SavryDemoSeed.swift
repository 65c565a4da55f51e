import EventSourcing
import Foundation
import SavryDomain

/// The demo's users and their recipes: dev sign-ins `ana`, `ben` and `chloe`, four recipes each.
/// Seeding is idempotent: a user is registered once per identity, and each recipe is created under
/// an event id derived from its owner and slug, so seeding again records nothing.
public enum SavryDemoSeed {
    /// Seeds `commands`' log and returns how many events it recorded (0 when seeded before). Meant
    /// for start-up, before serving: the count is the log head's advance.
    @discardableResult
    public static func run(into commands: SavryCommandService) async throws -> Int {
        let before = commands.store.log.headPosition
        for (user, recipes) in DemoRecipes.byUser {
            let signIn = try await commands.signIn(SavryIdentity(provider: .dev, subject: user))
            for (slug, fields) in recipes {
                _ = try await commands.createRecipe(fields, by: signIn.userId, eventId: SavryCatalog.derivedEventId(from: "demo:\(user):\(slug)"))
            }
        }
        return Int(commands.store.log.headPosition - before)
    }
}
