import Foundation
import HTTPTypes
import SavryDomain
import Testing

/// Paging by `updatedAt` over recipes whose events share one recorded time, and an edit mid-walk.
@Suite(.timeLimit(.minutes(3))) struct PagingTests {
    static let at = Date(timeIntervalSince1970: 1_767_139_200)

    /// `count` recipes of `userId`, appended straight to the log all at `at`; their ids, oldest first.
    static func recipesRecordedTogether(_ server: SavryLiveServer, userId: Int64, count: Int) async throws -> [String] {
        var ids: [String] = []
        var last: UInt64 = 0
        for index in 0..<count {
            let id = RecipeId.of(creation: UUID())
            last = try await server.storage.append(
                .recipeCreated(RecipeCreated(recipeId: id, userId: userId, fields: RecipeFields(name: "Recipe \(index)"))), to: SavryStreams.recipe(id), at: at
            )
            ids.append(id)
        }
        try #require(await server.storage.runner.waitUntilApplied(last, timeout: .seconds(10)))
        return ids
    }

    /// Every page from the top with `limit`: the ids of each page, and each page's reply.
    static func walk(_ client: SavryClient, token: String, limit: Int) async throws -> [SavryClient.Reply] {
        var pages: [SavryClient.Reply] = []
        var cursor: String?
        repeat {
            let reply = try await client.send(.get, "/api/app/recipes?limit=\(limit)" + (cursor.map { "&cursor=\($0)" } ?? ""), token: token)
            try #require(reply.status == .ok, "\(reply.text)")
            pages.append(reply)
            cursor = reply.json["nextCursor"] as? String
            try #require(pages.count <= 20)
        } while cursor != nil
        return pages
    }

    static func ids(_ page: SavryClient.Reply) -> [String] {
        (page.json["recipes"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    @Test func aWalkOverRecipesRecordedAtOneInstantReturnsEachOnceNewestFirst() async throws {
        try await SavryLiveServer.run { server in
            let token = try await server.client.token("ana")
            let created = try await Self.recipesRecordedTogether(server, userId: 1, count: 7)
            let pages = try await Self.walk(server.client, token: token, limit: 2)
            #expect(pages.map { Self.ids($0).count } == [2, 2, 2, 1])
            #expect(pages.flatMap(Self.ids) == created.reversed())
            #expect(pages.last?.json["nextCursor"] is NSNull)
            let stamps = pages.flatMap { ($0.json["recipes"] as? [[String: Any]] ?? []).compactMap { $0["updatedAt"] as? String } }
            #expect(stamps.first == "2025-12-31T00:00:00.006Z" && stamps.last == "2025-12-31T00:00:00.000Z")
            #expect(pages.dropLast().map { $0.json["nextCursor"] as? String } == ["2025-12-31T00:00:00.005Z", "2025-12-31T00:00:00.003Z", "2025-12-31T00:00:00.001Z"])
            #expect(Set(pages.map { $0.headers[.listHead] }) == ["2025-12-31T00:00:00.006Z"])

            // A full last page ends the walk: no cursor to an empty page.
            let sixes = try await Self.walk(server.client, token: token, limit: 7)
            #expect(sixes.count == 1 && sixes[0].json["nextCursor"] is NSNull)
        }
    }

    @Test func aRecipeEditedMidWalkMovesToTheHeadAndTheListHeadTellsTheClient() async throws {
        try await SavryLiveServer.run { server in
            let client = server.client
            let token = try await client.token("ana")
            let created = try await Self.recipesRecordedTogether(server, userId: 1, count: 5)
            let first = try await client.send(.get, "/api/app/recipes?limit=2", token: token)
            #expect(Self.ids(first) == [created[4], created[3]])
            let headBefore = try #require(first.headers[.listHead])

            let edited = try await client.send(.patch, "/api/app/recipes/\(created[0])", token: token, body: #"{"description":"Now with chives"}"#)
            #expect(edited.status == .ok)
            let editedStamp = try #require(edited.recipe["updatedAt"] as? String)

            let cursor = try #require(first.json["nextCursor"] as? String)
            let second = try await client.send(.get, "/api/app/recipes?limit=2&cursor=\(cursor)", token: token)
            #expect(Self.ids(second) == [created[2], created[1]])
            #expect(second.json["nextCursor"] is NSNull)
            #expect(second.headers[.listHead] == editedStamp && editedStamp != headBefore)

            let top = try await client.send(.get, "/api/app/recipes?limit=2", token: token)
            #expect(Self.ids(top) == [created[0], created[4]])
            let all = try await Self.walk(client, token: token, limit: 2)
            #expect(all.flatMap(Self.ids) == [created[0], created[4], created[3], created[2], created[1]])
        }
    }
}
