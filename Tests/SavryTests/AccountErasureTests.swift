import Foundation
import Logging
import ProductHosting
import SavryProjections
import TestSupport
import Testing

/// Account deletion by crypto-shredding, through the live server: a cook's recipes are sealed in the
/// log under their own key; deleting the account records `user-erased` and destroys the key, so
/// their recipes are gone from every read, their token opens nothing, their identity signs in as a
/// new user, and no copy of the log (a replay, a backup from before) brings anything back.
@Suite(.timeLimit(.minutes(3))) struct AccountErasureTests {
    static let cook = "olga-the-cook-7f3e"
    static let name = "Grandma Olga's Secret Borscht"
    static let instruction = "Roast the beets with caraway for exactly 47 minutes"
    static let editedText = "Serve with smetana and dill"
    static let recipe = #"{"name":"\#(name)","description":"From the old country","ingredients":[{"name":"beets","quantity":"4"}],"instructions":["\#(instruction)","Blend"],"servings":4}"#
    static let secrets = [name, instruction, editedText, cook]

    /// Whether any file under `directory` holds `text` in its raw bytes.
    static func anyFile(under directory: URL, holds text: String) throws -> Bool {
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])?.compactMap { $0 as? URL } ?? []
        return try files.contains { file in
            guard try file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { return false }
            return try Data(contentsOf: file).range(of: Data(text.utf8)) != nil
        }
    }

    struct Before: Sendable {
        var cookToken: String
        var cookId: Int64
        var benToken: String
        var recipeIds: [String]
        var bensRecipe: String
    }

    @Test func aCookWhoDeletesTheirAccountIsGoneFromEveryReadEveryReplayAndEveryBackup() async throws {
        let temporary = try TemporaryDirectory()
        let data = temporary.url.appendingPathComponent("data")
        let first = try await SavryStorage(directory: data)

        // A cook with recipes, and another cook who stays.
        let before = try await SavryLiveServer.run(storage: first) { server in
            let client = server.client
            let cookToken = try await client.token(Self.cook)
            let cookId = try #require(try await server.tokens.grant(from: cookToken)?.userId)
            let borscht = try await client.create(cookToken, Self.recipe)
            let other = try await client.create(cookToken, #"{"name":"Plain toast","ingredients":[],"instructions":[]}"#)
            #expect(try await client.send(.patch, "/api/app/recipes/\(borscht)", token: cookToken, body: #"{"description":"\#(Self.editedText)"}"#).status == .ok)
            let benToken = try await client.token("ben")
            let bensRecipe = try await client.create(benToken, #"{"name":"Ben's Chili","ingredients":[],"instructions":["Cook slowly"]}"#)

            // Sealed in the log from the start: the raw LMDB file holds none of it.
            for secret in Self.secrets { #expect(try !server.storage.logFileHolds(secret), "\(secret) is in the log in clear") }

            // The export, taken before the deletion, holds everything decrypted.
            let export = try await client.send(.get, "/api/app/account/export", token: cookToken)
            #expect(export.status == .ok && export.headers[.contentType]?.hasPrefix("application/json") == true)
            let account = try #require(export.json["account"] as? [String: Any])
            #expect(account["userId"] as? String == "\(cookId)" && account["recipeCount"] as? Int == 2)
            let recipes = try #require(account["recipes"] as? [[String: Any]])
            #expect(recipes.compactMap { $0["name"] as? String } == [Self.name, "Plain toast"])
            #expect(recipes.first?["instructions"] as? [String] == [Self.instruction, "Blend"])
            #expect(recipes.first?["description"] as? String == Self.editedText)
            let events = try #require(export.json["events"] as? [[String: Any]])
            #expect(events.compactMap { $0["type"] as? String } == ["identity-claimed", "user-registered", "recipe-created", "recipe-created", "recipe-updated"])
            #expect(export.json["user_id"] as? Int == Int(cookId) && export.json["product"] as? String == "savry")
            for secret in [Self.instruction, Self.editedText, Self.cook] { #expect(export.text.contains(secret), "the export holds \(secret)") }
            #expect(!export.text.contains("Ben's Chili"))
            return Before(cookToken: cookToken, cookId: cookId, benToken: benToken, recipeIds: [borscht, other], bensRecipe: bensRecipe)
        }
        first.close()

        // A backup taken before the deletion (`savry backup`: the log only) holds no recipe in clear
        // either.
        let backup = temporary.url.appendingPathComponent("backup")
        try Backup.create(SavryProduct.self, from: data, to: backup)
        for secret in Self.secrets { #expect(try !Self.anyFile(under: backup, holds: secret), "the backup holds \(secret) in clear") }

        let second = try await SavryStorage(directory: data)
        try await SavryLiveServer.run(storage: second) { server in
            let client = server.client
            let deleted = try await client.send(.delete, "/api/app/account", token: before.cookToken)
            #expect(deleted.status == .noContent && deleted.text.isEmpty, "\(deleted.status) \(deleted.text)")

            try await Self.expectErased(before, server)
            for secret in Self.secrets { #expect(try !server.storage.logFileHolds(secret), "\(secret) is in the log in clear") }
            #expect(try await client.send(.delete, "/api/app/account", token: before.cookToken).status == .unauthorized)
            // Nor the read models' files: the rows were zeroed (secure_delete) and the WAL truncated.
            for secret in Self.secrets { #expect(try !Self.anyFile(under: server.storage.data.read, holds: secret), "the read models' files hold \(secret)") }

            // The operator's audit shows the erasure and none of what the cook wrote.
            let audit = try await client.admin(.get, "/admin/users/\(before.cookId)/audit?limit=100")
            #expect(audit.status == .ok)
            let entries = try #require(audit.json["events"] as? [[String: Any]])
            #expect(entries.compactMap { $0["type"] as? String } == ["identity-claimed", "user-registered", "recipe-created", "recipe-created", "recipe-updated", "user-erased"])
            let erasure = try #require(entries.last)
            #expect(Self.erasurePayload(erasure) == ErasurePayload(userId: before.cookId, initiator: "user"))
            #expect(erasure["role"] as? String == "actor")
            for secret in Self.secrets + ["Plain toast"] { #expect(!audit.text.contains(secret), "the audit shows \(secret)") }

            // Signing in again with the same identity is a new, empty user.
            let again = try await client.token(Self.cook)
            #expect(try await server.tokens.grant(from: again)?.userId != before.cookId)
            let list = try await client.send(.get, "/api/app/recipes", token: again)
            #expect(list.status == .ok && (list.json["recipes"] as? [Any])?.isEmpty == true)

            // A replay from position 0 folds the same rows.
            let rows = try server.storage.database.canonicalDump()
            #expect(try server.storage.refold() == rows)
            let replay = try await client.admin(.post, "/admin/replay")
            #expect(replay.status == .accepted, "\(replay.text)")
            var state = replay.json["state"] as? String
            for _ in 0..<200 where state == "running" {
                try await Task.sleep(for: .milliseconds(20))
                state = try await client.admin(.get, "/admin/replay").json["state"] as? String
            }
            #expect(state == "finished")
            #expect(try server.storage.database.canonicalDump() == rows)
            try await Self.expectErased(before, server)
        }
        let headAfterErasure = second.log.headPosition
        second.close()

        // The backup from before the deletion, restored over the data directory with the newest key
        // store (`savry restore --force`: the directory's own is kept, the read models are folded
        // again from the log) and served: the cook is still gone.
        let manifest = try Backup.restore(SavryProduct.self, from: backup, to: data, keyStore: nil, force: true)
        #expect(manifest.logHeadPosition < headAfterErasure)
        let third = try await SavryStorage(directory: data)
        #expect(try third.stores.keys.isDestroyed(before.cookId))
        try third.runner.catchUp()
        try await SavryLiveServer.run(storage: third) { server in
            try await Self.expectErased(before, server)
            let audit = try await server.client.admin(.get, "/admin/users/\(before.cookId)/audit?limit=100")
            for secret in Self.secrets { #expect(!audit.text.contains(secret), "the audit shows \(secret)") }
            #expect(audit.text.contains("user-erased"), "the restored log records the erasure again")
            let again = try await server.client.token(Self.cook)
            #expect(try await server.tokens.grant(from: again)?.userId != before.cookId)
            #expect((try await server.client.send(.get, "/api/app/recipes", token: again).json["recipes"] as? [Any])?.isEmpty == true)
            #expect(try server.storage.refold() == server.storage.database.canonicalDump())
        }
        third.close()
    }

    /// What every read shows once the cook is erased: their token opens nothing, their recipes are
    /// not found by anyone and not in the read models, the other cook's are as they were.
    static func expectErased(_ before: Before, _ server: SavryLiveServer) async throws {
        let client = server.client
        for (method, path) in [("GET", "/api/app/recipes"), ("GET", "/api/app/recipes/\(before.recipeIds[0])"), ("GET", "/api/app/account/export")] {
            let reply = try await client.send(.init(method)!, path, token: before.cookToken)
            #expect(reply.status == .unauthorized && reply.isErrorShape, "\(method) \(path): \(reply.status) \(reply.text)")
        }
        for id in before.recipeIds {
            let reply = try await client.send(.get, "/api/app/recipes/\(id)", token: before.benToken)
            #expect(reply.status == .notFound && reply.isErrorShape, "\(id): \(reply.status) \(reply.text)")
        }
        let bens = try await client.send(.get, "/api/app/recipes", token: before.benToken)
        #expect((bens.json["recipes"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [before.bensRecipe])
        let rows = try server.storage.database.canonicalDump()
        for secret in secrets + ["Plain toast"] { #expect(!rows.contains(secret), "the read models hold \(secret)") }
        #expect(try RecipeQueries(database: server.storage.database).all(of: before.cookId).isEmpty)
    }

    struct ErasurePayload: Equatable {
        var userId: Int64
        var initiator: String
    }

    /// A `user-erased` audit entry's payload, when it holds exactly its user and initiator.
    static func erasurePayload(_ entry: [String: Any]) -> ErasurePayload? {
        guard let payload = entry["payload"] as? [String: Any], payload.count == 2, let userId = payload["userId"] as? Int,
              let initiator = payload["initiator"] as? String
        else { return nil }
        return ErasurePayload(userId: Int64(userId), initiator: initiator)
    }

    @Test func anOperatorErasesAnAccountForASupportRequest() async throws {
        try await SavryLiveServer.run { server in
            let client = server.client
            let token = try await client.token("ana")
            let userId = try #require(try await server.tokens.grant(from: token)?.userId)
            _ = try await client.create(token, Self.recipe)
            let erased = try await client.admin(.post, "/admin/users/\(userId)/erase")
            #expect(erased.status == .ok && erased.json["userId"] as? Int == Int(userId) && erased.json["position"] as? Int == 4, "\(erased.text)")
            #expect(try await client.send(.get, "/api/app/recipes", token: token).status == .unauthorized)
            #expect(try RecipeQueries(database: server.storage.database).all(of: userId).isEmpty)
            #expect(try !Self.anyFile(under: server.storage.data.read, holds: Self.instruction))

            let again = try await client.admin(.post, "/admin/users/\(userId)/erase")
            #expect(again.status == .conflict && again.isErrorShape, "\(again.text)")
            let unknown = try await client.admin(.post, "/admin/users/99/erase")
            #expect(unknown.status == .notFound && unknown.isErrorShape, "\(unknown.text)")
            let malformed = try await client.admin(.post, "/admin/users/zero/erase")
            #expect(malformed.status == .badRequest && malformed.isErrorShape, "\(malformed.text)")
            let unauthorized = try await client.send(.post, "/admin/users/\(userId)/erase")
            #expect(unauthorized.status == .unauthorized && unauthorized.isErrorShape)

            let audit = try await client.admin(.get, "/admin/users/\(userId)/audit")
            let last = try #require((audit.json["events"] as? [[String: Any]])?.last)
            #expect(last["type"] as? String == "user-erased" && last["role"] as? String == "subject" && last["actorUserId"] is NSNull)
            #expect(Self.erasurePayload(last) == ErasurePayload(userId: userId, initiator: "operator"))
            #expect(!audit.text.contains(Self.name) && !audit.text.contains(Self.instruction))
        }
    }

    @Test func anAccountWithoutRecipesExportsAnEmptyAccount() async throws {
        try await SavryLiveServer.run { server in
            let token = try await server.client.token("newcomer")
            let export = try await server.client.send(.get, "/api/app/account/export", token: token)
            #expect(export.status == .ok)
            let account = try #require(export.json["account"] as? [String: Any])
            #expect(account.count == 3 && account["userId"] as? String == "1" && account["recipeCount"] as? Int == 0 && (account["recipes"] as? [Any])?.isEmpty == true)
            #expect((export.json["events"] as? [[String: Any]])?.compactMap { $0["type"] as? String } == ["identity-claimed", "user-registered"])
            #expect(export.headers[.contentDisposition] == #"attachment; filename="savry-export-1.json""#)
            let instants = [export.json["exported_at"]] + ((export.json["events"] as? [[String: Any]]) ?? []).map { $0["recorded_at"] }
            #expect(instants.allSatisfy { ($0 as? String)?.wholeMatch(of: #/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/#) != nil }, "\(instants)")
            let anonymous = try await server.client.send(.get, "/api/app/account/export")
            #expect(anonymous.status == .unauthorized && anonymous.isErrorShape)
            let deleteAnonymous = try await server.client.send(.delete, "/api/app/account", token: "not-a-token")
            #expect(deleteAnonymous.status == .unauthorized && deleteAnonymous.isErrorShape)
        }
    }
}
