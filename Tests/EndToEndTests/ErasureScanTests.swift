import Foundation
import TestSupport
import Testing

/// Erased means gone from every file: for each product, distinctive words go into every personal
/// field of two users (News: of one reader, whom an operator erases, as the contract has no
/// account deletion); one deletes their own account, an operator erases the other; then every byte of the data directory is searched for those words, at once, after an
/// online replay, in a backup taken afterwards, and after a restart. Before the erasures the same
/// search finds them (the scan can fail).
@Suite(.timeLimit(.minutes(6))) struct ErasureScanTests {
    @Test func nuvieLeavesNoWordOfAnErasedUserInAnyFile() async throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("data")
        // MovieLens user 2's tags are their own words too: the tiny demo set, with one tag more.
        let dataset = directory.url.appendingPathComponent("dataset")
        try FileManager.default.copyItem(at: repositoryRoot.appendingPathComponent("replay-fixtures/movielens-tiny"), to: dataset)
        let tags = dataset.appendingPathComponent("tags.csv")
        try (String(contentsOf: tags, encoding: .utf8) + "2,1,wapendrama,1445714995\n").write(to: tags, atomically: true, encoding: .utf8)
        func serve() async throws -> ServerProcess {
            try await ServerProcess.start(outputDirectory: directory.url) { ServerProcess.demoArguments(dataDirectory: data, port: $0, dataset: dataset) }
        }
        var server = try await serve()
        defer { server.stopWhenLeaving() }
        let admin = ["X-Admin-Token": try String(contentsOf: data.appendingPathComponent("admin-token"), encoding: .utf8)]
        let secrets = ["Zorblatt", "Quimbyzz", "Marmaladeseventeen", "Periwinkleninety", "wapendrama"]

        let ana = try await server.post("/auth/login", #"{"provider":"dev","user_identifier":"zorblatt-7","name":"Zorblatt Quimbyzz"}"#)
        let token = try #require(ana.json["access_token"] as? String)
        let anaId = try #require((ana.json["user"] as? [String: Any])?["user_id"] as? Int)
        #expect(try await server.patch("/users/me", #"{"bio":"Marmaladeseventeen"}"#, token: token).status == 200)
        #expect(try await server.post("/movies/1/rate", #"{"rating":5,"comment":"Periwinkleninety","is_review":true}"#, token: token).status == 200)
        let friend = try #require(try await server.post("/auth/login", #"{"provider":"dev","user_identifier":"movielens-1"}"#).json["access_token"] as? String)
        let friendId = try #require(try await server.get("/users/me", token: friend).json["user_id"] as? Int)
        #expect(try await server.post("/friends/requests", #"{"user_id":\#(anaId)}"#, token: friend).status == 201)
        #expect(try await server.post("/friends/requests/1/accept", "{}", token: token).status == 200)
        #expect(try await server.post("/movies/2/recommend", #"{"user_ids":[\#(friendId)]}"#, token: token).status == 200)
        // The friend's feed, cached, gives the reason in Ana's name.
        #expect(try await server.get("/feed/recommendations?limit=50", token: friend).status == 200)
        #expect((try await server.get("/movies/search?q=wapendrama", token: friend).json["movies"] as? [Any])?.isEmpty == false)
        try PersonalDataScan.expectAll(of: secrets, none: [], in: data)

        #expect(try await server.delete("/users/me", token: token).status == 204)
        #expect(try await server.post("/admin/users/2/erase", "{}", headers: admin).status == 200)
        try PersonalDataScan.expectNone(of: secrets, in: data, "right after the erasures")
        let search = try await server.get("/movies/search?q=wapendrama", token: friend)
        #expect(search.status == 200 && (search.json["movies"] as? [Any])?.isEmpty == true, "\(search.text.prefix(300))")
        #expect(try await server.get("/feed/recommendations?limit=50", token: friend).status == 200)

        try await PersonalDataScan.replay(server, admin: admin)
        try PersonalDataScan.expectNone(of: secrets, in: data, "after an online replay")
        let backup = directory.url.appendingPathComponent("backup")
        #expect(try await runNuvie(["backup", "--data-dir", data.path, backup.path]).status == 0)
        try PersonalDataScan.expectNone(of: secrets, in: backup, "in a backup taken after the erasures")
        await server.stop()
        try PersonalDataScan.expectNone(of: secrets, in: data, "after a clean stop")
        server = try await serve()
        try PersonalDataScan.expectNone(of: secrets, in: data, "after a restart")
        await server.stop()
    }

    @Test func savryLeavesNoWordOfAnErasedCookInAnyFile() async throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("data")
        var server = try await SavryEndToEndTests.serve(data)
        defer { server.stopWhenLeaving() }
        let admin = ["X-Admin-Token": try String(contentsOf: data.appendingPathComponent("admin-token"), encoding: .utf8)]
        let secrets = ["Zanzibarquibble", "Flibbertigibbet", "Snorkelweed", "Quuxifygently", "Brobdingnagian", "xylophonic", "Gargleblaster"]
        func recipe(_ name: String) -> String {
            #"{"name":"\#(name)","description":"Flibbertigibbet","ingredients":[{"name":"Snorkelweed","quantity":"1","unit":"cup"}],"instructions":["Quuxifygently"],"prepTime":1,"cookTime":2,"servings":1,"calories":10,"difficulty":"easy","cuisine":"Brobdingnagian","dietaryTags":["xylophonic"],"imageUrl":null,"estimatedCost":1.5}"#
        }
        let own = try await SavryEndToEndTests.signIn(server, "zanzi-cook")
        #expect(try await server.post("/api/app/recipes", recipe("Zanzibarquibble"), token: own).status == 201)
        let other = try await SavryEndToEndTests.signIn(server, "garg-cook")
        let created = try await server.post("/api/app/recipes", recipe("Gargleblaster"), token: other)
        let otherId = try #require((created.json["recipe"] as? [String: Any])?["userId"] as? String)
        try PersonalDataScan.expectAll(of: secrets, none: [], in: data)

        #expect(try await server.delete("/api/app/account", token: own).status == 204)
        #expect(try await server.post("/admin/users/\(otherId)/erase", "{}", headers: admin).status == 200)
        try PersonalDataScan.expectNone(of: secrets, in: data, "right after the erasures")
        try await PersonalDataScan.replay(server, admin: admin)
        try PersonalDataScan.expectNone(of: secrets, in: data, "after an online replay")
        let backup = directory.url.appendingPathComponent("backup")
        #expect(try await runProduct("savry", ["backup", "--data-dir", data.path, backup.path]).status == 0)
        try PersonalDataScan.expectNone(of: secrets, in: backup, "in a backup taken after the erasures")
        await server.stop()
        server = try await SavryEndToEndTests.serve(data)
        try PersonalDataScan.expectNone(of: secrets, in: data, "after a restart")
        await server.stop()
    }

    @Test func chatLeavesNoWordOfAnErasedUserInAnyFile() async throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("data")
        var server = try await ChatEndToEndTests.serve(data)
        defer { server.stopWhenLeaving() }
        let admin = ["X-Admin-Token": try String(contentsOf: data.appendingPathComponent("admin-token"), encoding: .utf8)]
        // Accounts are read from the log (sealed) and never held in clear: only sessions are.
        let sealedOnly = ["quokkaprivacy", "Zephyrine", "Quillsworth", "Hornswoggle"], shown = ["glimmerwhisk", "Snollygoster", "blorptastic"]
        let secrets = sealedOnly + shown
        let own = try await server.post("/api/signup/", #"{"email":"quokkaprivacy@example.com","password":"long enough pass","first_name":"Zephyrine","last_name":"Quillsworth"}"#)
        let ownAuth = ["Authorization": "Token \(try #require(own.json["token"] as? String))"]
        let sent = try await server.post("/api/send-chat/", #"{"message":"Tell me about glimmerwhisk"}"#, headers: ownAuth)
        let sessionId = try #require(sent.json["session_id"] as? Int)
        #expect(try await server.patch("/api/chat/sessions/\(sessionId)/", #"{"title":"Snollygoster plans"}"#, headers: ownAuth).status == 200)
        let other = try await server.post("/api/signup/", #"{"email":"other@example.com","password":"long enough pass","first_name":"Hornswoggle"}"#)
        let otherId = try #require(other.json["id"] as? Int)
        let otherAuth = ["Authorization": "Token \(try #require(other.json["token"] as? String))"]
        #expect(try await server.post("/api/send-chat/", #"{"message":"blorptastic question"}"#, headers: otherAuth).status == 200)
        try PersonalDataScan.expectAll(of: shown, none: sealedOnly, in: data)

        #expect(try await server.delete("/api/account/", #"{"password":"wrong password here"}"#, headers: ownAuth).status == 400)
        #expect(try await server.delete("/api/account/", #"{"password":"long enough pass"}"#, headers: ownAuth).status == 204)
        #expect(try await server.get("/api/chat/sessions/", headers: ownAuth).status == 401)
        #expect(try await server.post("/admin/users/\(otherId)/erase", "{}", headers: admin).status == 200)
        try PersonalDataScan.expectNone(of: secrets, in: data, "right after the erasures")
        try await PersonalDataScan.replay(server, admin: admin)
        try PersonalDataScan.expectNone(of: secrets, in: data, "after an online replay")
        let backup = directory.url.appendingPathComponent("backup")
        #expect(try await runProduct("chat", ["backup", backup.path, "--data-dir", data.path]).status == 0)
        try PersonalDataScan.expectNone(of: secrets, in: backup, "in a backup taken after the erasures")
        await server.stop()
        server = try await ChatEndToEndTests.serve(data)
        try PersonalDataScan.expectNone(of: secrets, in: data, "after a restart")
        await server.stop()
    }

    @Test func newsLeavesNoWordOfAnErasedReaderInAnyFile() async throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("data")
        var server = try await NewsPreferenceWrites().serve(data)
        defer { server.stopWhenLeaving() }
        let admin = ["X-Admin-Token": try String(contentsOf: data.appendingPathComponent("admin-token"), encoding: .utf8)]
        // The id is sealed in the log and the read models key by its hash; the holdings are opened there.
        let id = "zorblatt.investor@example.com", sealedOnly = [id], shown = ["Quibblefund", "Marmaladeaccount"]
        let set = try await server.put(
            "/v1/preferences", #"{"holdings":["MSFT",{"ticker":"AAPL","label":"Quibblefund","notes":"Marmaladeaccount 4417"}]}"#, headers: ["X-User-ID": id]
        )
        #expect(set.status == 200)
        try PersonalDataScan.expectAll(of: shown, none: sealedOnly, in: data)

        let reader = try await runProduct("news", ["reader", "--data-dir", data.path, "--x-user-id", id])
        let readerId = try #require(Int(reader.output.trimmingCharacters(in: .whitespacesAndNewlines)), "\(reader.output)")
        #expect(try await server.post("/admin/users/\(readerId)/erase", "{}", headers: admin).status == 200)
        try PersonalDataScan.expectNone(of: shown + sealedOnly, in: data, "right after the erasure")
        try await PersonalDataScan.replay(server, admin: admin)
        try PersonalDataScan.expectNone(of: shown + sealedOnly, in: data, "after an online replay")
        let backup = directory.url.appendingPathComponent("backup")
        #expect(try await runProduct("news", ["backup", backup.path, "--data-dir", data.path]).status == 0)
        try PersonalDataScan.expectNone(of: shown + sealedOnly, in: backup, "in a backup taken after the erasure")
        await server.stop()
        server = try await NewsPreferenceWrites().serve(data)
        try PersonalDataScan.expectNone(of: shown + sealedOnly, in: data, "after a restart")
        await server.stop()
    }
}

/// Searches every byte of every file below a directory for words, as written and in lower case (an
/// FTS index keeps its terms folded). Only a word's last eight letters are looked for as well: an
/// FTS5 leaf stores a term after the prefix it shares with the term before it.
enum PersonalDataScan {
    struct Finding: CustomStringConvertible {
        var secret: String
        var file: String
        var description: String { "\(secret) in \(file)" }
    }

    static func findings(of secrets: [String], in directory: URL) throws -> [Finding] {
        var findings: [Finding] = []
        let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = files?.nextObject() as? URL {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true,
                  let bytes = FileManager.default.contents(atPath: url.path) else { continue }
            for secret in secrets {
                let forms = Set([secret, secret.lowercased(), String(secret.lowercased().suffix(8))])
                if forms.contains(where: { bytes.range(of: Data($0.utf8)) != nil }) {
                    findings.append(Finding(secret: secret, file: url.path.replacingOccurrences(of: directory.path, with: "")))
                }
            }
        }
        return findings
    }

    /// Before any erasure: `shown` (the read models hold them opened) are found, so the scan can fail;
    /// `sealed` (held only sealed) are not.
    static func expectAll(of shown: [String], none sealed: [String], in directory: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let found = try findings(of: shown + sealed, in: directory)
        for secret in shown { #expect(found.contains { $0.secret == secret }, "the scan does not find \(secret) before any erasure", sourceLocation: sourceLocation) }
        for secret in sealed { #expect(!found.contains { $0.secret == secret }, "\(secret) in clear before any erasure: \(found)", sourceLocation: sourceLocation) }
    }

    static func expectNone(of secrets: [String], in directory: URL, _ when: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let found = try findings(of: secrets, in: directory)
        #expect(found.isEmpty, "\(when): \(found)", sourceLocation: sourceLocation)
    }

    /// An online replay of every projection, waited for; it must have finished, or what is checked
    /// after it is the files from before it.
    static func replay(_ server: ServerProcess, admin: [String: String], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        #expect(try await server.post("/admin/replay", "{}", headers: admin).status == 202, sourceLocation: sourceLocation)
        var status: [String: Any] = [:]
        for _ in 0..<600 {
            status = try await server.get("/admin/replay", headers: admin).json
            guard status["state"] as? String == "running" else { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(status["state"] as? String == "finished", "the replay: \(status)", sourceLocation: sourceLocation)
    }
}
