import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// Products' real binaries as nodes of one product over a PostgreSQL log (`--log-url`): each node a
/// process with a data directory of its own, all sharing the log and the key store in one database.
@Suite(.enabled(if: TestPostgres.serverURL != nil, "needs ENGINE_TEST_POSTGRES_URL: scripts/postgres.sh run swift test"), .timeLimit(.minutes(5)))
struct SharedLogNodeTests {
    /// What every node of a cluster must share besides the log: the master key the data keys are
    /// wrapped under, and the secrets its tokens are signed with.
    static func clusterEnvironment(_ prefix: String) -> [String: String] {
        [
            "\(prefix)_MASTER_KEY": Data(repeating: 7, count: 32).base64EncodedString(),
            "\(prefix)_JWT_SECRET": "cluster-test-secret-cluster-test-secret",
            "\(prefix)_ADMIN_TOKEN": "cluster-test-admin-token-cluster-test",
            "\(prefix)_READ_YOUR_WRITES_TIMEOUT_MS": "3000",
        ]
    }

    static func savryNode(_ directory: URL, logURL: String) async throws -> ServerProcess {
        try await ServerProcess.start("savry", outputDirectory: directory.deletingLastPathComponent(), environment: clusterEnvironment("SAVRY")) { port in
            ["serve", "--data-dir", directory.path, "--port", "\(port)", "--demo", "--log-url", logURL, "--log-level", "warning"]
        }
    }

    /// Nodes `a` and `b` of one log, each in its own directory under `directory`.
    static func twoSavryNodes(in directory: URL, logURL: String) async throws -> (ServerProcess, ServerProcess) {
        (try await savryNode(directory.appendingPathComponent("a"), logURL: logURL), try await savryNode(directory.appendingPathComponent("b"), logURL: logURL))
    }

    static func chatNode(_ directory: URL, logURL: String) async throws -> ServerProcess {
        let environment = clusterEnvironment("CHAT").merging(ChatEndToEndTests.environment) { $1 }
        return try await ServerProcess.start("chat", outputDirectory: directory.deletingLastPathComponent(), environment: environment) { port in
            ["serve", "--data-dir", directory.path, "--port", "\(port)", "--demo", "--log-url", logURL, "--log-level", "warning"]
        }
    }

    /// Polls until `done` holds, for at most `timeout`; whether it did.
    static func eventually(within timeout: Duration = .seconds(5), _ done: () async throws -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try await done() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try await done()
    }

    /// Sixteen first sign-ins at once on two nodes: every one registers, each a user of its own (the
    /// ids come from the shared log, so the nodes never hand out the same one).
    @Test func firstSignInsOnTwoNodesAtOnceAllRegister() async throws {
        let directory = try TemporaryDirectory()
        let (a, b) = try await Self.twoSavryNodes(in: directory.url, logURL: try await TestPostgres.newDatabase())
        defer { a.stopWhenLeaving(); b.stopWhenLeaving() }
        let answers = try await withThrowingTaskGroup(of: (UInt, String).self) { group in
            for n in 0..<16 {
                group.addTask {
                    let reply = try await (n.isMultiple(of: 2) ? a : b).post("/api/app/auth", #"{"devUser":"newcomer-\#(n)"}"#)
                    return (reply.status, reply.text)
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.allSatisfy { $0.0 == 200 }, "\(answers.filter { $0.0 != 200 })")
        let users = Set(answers.compactMap { answer -> String? in
            // The token's subject: the user id it was issued to.
            guard let token = (try? JSONSerialization.jsonObject(with: Data(answer.1.utf8)) as? [String: Any])?["token"] as? String else { return nil }
            return tokenClaims(token)?["sub"] as? String
        })
        #expect(users.count == 16, "sixteen users of their own: \(users.sorted())")
    }

    @Test func aWriteOnOneNodeIsReadOnAnotherAndAnErasureBlindsEveryNode() async throws {
        let directory = try TemporaryDirectory()
        let (a, b) = try await Self.twoSavryNodes(in: directory.url, logURL: try await TestPostgres.newDatabase())
        defer { a.stopWhenLeaving(); b.stopWhenLeaving() }

        let token = try await SavryEndToEndTests.signIn(a, "ana")
        let created = try await a.post("/api/app/recipes", #"{"name":"Quince of the cluster","ingredients":[{"name":"quince"}],"instructions":["Poach"]}"#, token: token)
        #expect(created.status == 201)
        // The write's answer names how far node A had folded; node B, asked for at least that, waits until it has.
        let position = try #require(created.headers["x-log-position"])
        let onB = try await b.get("/api/app/recipes", token: token, headers: ["X-Min-Position": position])
        #expect(onB.status == 200 && onB.text.contains("Quince of the cluster"), "\(onB.status) \(onB.text)")
        #expect(UInt64(onB.headers["x-log-position"] ?? "") ?? 0 >= UInt64(position) ?? .max)
        let neverWritten = try await b.get("/api/app/recipes", token: token, headers: ["X-Min-Position": "\((UInt64(position) ?? 0) + 1_000)"])
        #expect(
            neverWritten.status == 400 && (neverWritten.json["message"] as? String)?.contains("past the last position written") == true,
            "a position no node has written: refused at once in Savry's shape, not waited for: \(neverWritten.status) \(neverWritten.text)"
        )
        #expect(try await b.get("/api/app/recipes", token: token, headers: ["X-Min-Position": "soon"]).status == 400)
        #expect(try await b.get("/api/app/recipes", token: try await SavryEndToEndTests.signIn(b, "ana")).text.contains("Quince"), "the same cook, signed in on either node")

        // How soon is a figure for BENCHMARKS.md, not a timed test: here, that it happens.
        #expect(try await a.delete("/api/app/account", token: token).status == 204)
        #expect(try await Self.eventually { try await b.get("/api/app/recipes", token: token).status == 401 })
        let healthB = try await b.get("/health")
        #expect(healthB.status == 200)
    }

    /// And a new node without its secrets does not start as a demo (a new, empty directory otherwise is
    /// one), nor a node's directory without its shared log (served alone, its copy would part from it).
    @Test func aNodeDoesNotStartOnAnotherProductsLogOrOnAServerItCannotReach() async throws {
        let directory = try TemporaryDirectory()
        let logURL = try await TestPostgres.newDatabase()
        try await Self.savryNode(directory.url.appendingPathComponent("savry"), logURL: logURL).stop()

        let chat = try await runProduct("chat", ["serve", "--data-dir", directory.url.appendingPathComponent("chat").path, "--port", "0", "--demo", "--log-url", logURL])
        #expect(chat.status != 0 && chat.output.contains("CHAT_LOG_URL: the database at") && chat.output.contains("holds the event log of savry"), "\(chat.output)")

        let unreachable = try await runProduct(
            "savry", ["serve", "--data-dir", directory.url.appendingPathComponent("other").path, "--port", "0", "--demo"],
            environment: ["SAVRY_LOG_URL": "postgres://postgres:secret-password@127.0.0.1:1/savry?sslmode=disable"]
        )
        #expect(unreachable.status != 0 && unreachable.output.contains("SAVRY_LOG_URL: cannot reach the event log at postgres://postgres@127.0.0.1:1/savry"), "\(unreachable.output)")
        #expect(!unreachable.output.contains("secret-password"))

        let malformed = try await runProduct("savry", ["serve", "--data-dir", directory.url.appendingPathComponent("other").path, "--log-url", "mysql://x/y"])
        #expect(malformed.status != 0 && malformed.output.contains("SAVRY_LOG_URL"), "\(malformed.output)")

        let joining = try await runProduct("savry", ["serve", "--data-dir", directory.url.appendingPathComponent("joining").path, "--port", "0", "--log-url", logURL])
        #expect(joining.status != 0 && joining.output.contains("SAVRY_MASTER_KEY"), "\(joining.output)")

        let alone = try await runProduct("savry", ["serve", "--data-dir", directory.url.appendingPathComponent("savry").path, "--port", "0", "--demo"])
        #expect(alone.status != 0 && alone.output.contains("SAVRY_LOG_URL") && alone.output.contains("copy of the shared log"), "\(alone.output)")
    }

    /// Uniqueness holds across nodes: the same signup sent to three Chat nodes at once makes one
    /// account, and the other two are told the email is taken.
    @Test func theSameSignupOnThreeNodesAtOnceMakesOneAccount() async throws {
        let directory = try TemporaryDirectory()
        let logURL = try await TestPostgres.newDatabase()
        let environment = Self.clusterEnvironment("CHAT").merging(["CHAT_PASSWORD_ITERATIONS": "100000", "CHAT_RATE_LIMIT_PER_MINUTE": "0"]) { $1 }
        var nodes: [ServerProcess] = []
        for node in 0..<3 {
            let data = directory.url.appendingPathComponent("chat-\(node)")
            nodes.append(try await ServerProcess.start("chat", outputDirectory: directory.url, environment: environment) { port in
                ["serve", "--data-dir", data.path, "--port", "\(port)", "--demo", "--log-url", logURL, "--log-level", "warning"]
            })
        }
        defer { for node in nodes { node.stopWhenLeaving() } }
        for attempt in 0..<3 {
            let body = #"{"email":"race-\#(attempt)@example.com","password":"correct horse battery"}"#
            let statuses = try await withThrowingTaskGroup(of: UInt.self) { group in
                for node in nodes { group.addTask { try await node.post("/api/signup/", body).status } }
                return try await group.reduce(into: []) { $0.append($1) }.sorted()
            }
            #expect(statuses == [201, 400, 400], "attempt \(attempt): \(statuses)")
        }
    }

    /// A team that outgrows one machine keeps its history: `log-copy` moves a served directory's log
    /// and key store into PostgreSQL (again: nothing more to copy), and a node on it serves the same.
    @Test func anEmbeddedLogMovesIntoPostgreSQLAndANodeOnItServesTheSame() async throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("one-machine")
        let environment = Self.clusterEnvironment("SAVRY")
        let single = try await ServerProcess.start("savry", outputDirectory: directory.url, environment: environment) { port in
            ["serve", "--data-dir", data.path, "--port", "\(port)", "--demo", "--log-level", "warning"]
        }
        let ana = try await SavryEndToEndTests.signIn(single, "ana")
        #expect(try await single.post("/api/app/recipes", #"{"name":"Moved soup","ingredients":[{"name":"leek"}],"instructions":["Boil"]}"#, token: ana).status == 201)
        let ben = try await SavryEndToEndTests.signIn(single, "ben")
        #expect(try await single.delete("/api/app/account", token: ben).status == 204)
        let before = try Self.canonical(try await single.get("/api/app/recipes", token: ana).json)
        await single.stop()

        let logURL = try await TestPostgres.newDatabase()
        let copy = try await runProduct("savry", ["log-copy", "--to", logURL, "--data-dir", data.path], environment: environment)
        #expect(copy.status == 0 && copy.output.contains("copied") && !copy.output.contains("copied 0 events"), "\(copy.output)")
        let again = try await runProduct("savry", ["log-copy", "--to", logURL, "--data-dir", data.path], environment: environment)
        #expect(again.status == 0 && again.output.contains("copied 0 events"), "\(again.output)")
        // The old unit restarted without the log's URL is refused: what it took would never reach the shared log.
        let alone = try await runProduct("savry", ["serve", "--data-dir", data.path, "--port", "1"], environment: environment)
        #expect(alone.status != 0 && alone.output.contains("--log-url"), "\(alone.output)")
        // Nor is it backed up as if it were a log of its own.
        let backup = try await runProduct("savry", ["backup", "--data-dir", data.path, directory.url.appendingPathComponent("backup").path], environment: environment)
        #expect(backup.status == 1 && backup.output.contains("PostgreSQL's own tools"), "\(backup.output)")

        let node = try await Self.savryNode(directory.url.appendingPathComponent("node"), logURL: logURL)
        defer { node.stopWhenLeaving() }
        let after = try Self.canonical(try await node.get("/api/app/recipes", token: ana).json)
        #expect(after == before && after.contains("Moved soup"), "\(after)")
        #expect(try await node.get("/api/app/recipes", token: ben).status == 401, "an erasure before the move holds after it")
        let verify = try await runProduct("savry", ["verify", "--data-dir", directory.url.appendingPathComponent("node").path], environment: environment)
        #expect(verify.status == 0 && verify.output.contains("identical"), "\(verify.output)")
    }

    /// Backup is PostgreSQL's own: `pg_dump` of the product's database (log and key store in one
    /// snapshot), `pg_restore` into a new one, and a node with an empty data directory serves the same.
    @Test func aPgDumpRestoredIntoANewDatabaseServesTheSame() async throws {
        let directory = try TemporaryDirectory()
        let logURL = try await TestPostgres.newDatabase()
        let live = try await Self.savryNode(directory.url.appendingPathComponent("live"), logURL: logURL)
        let ana = try await SavryEndToEndTests.signIn(live, "ana")
        #expect(try await live.post("/api/app/recipes", #"{"name":"Dumped soup","ingredients":[{"name":"leek"}],"instructions":["Boil"]}"#, token: ana).status == 201)
        let ben = try await SavryEndToEndTests.signIn(live, "ben")
        #expect(try await live.delete("/api/app/account", token: ben).status == 204)
        let before = try Self.canonical(try await live.get("/api/app/recipes", token: ana).json)
        await live.stop()

        let dump = directory.url.appendingPathComponent("savry.dump")
        #expect(try await Self.run("/usr/bin/pg_dump", ["-Fc", "-f", dump.path, "--dbname", logURL]) == 0)
        let restoredURL = try await TestPostgres.newDatabase()
        #expect(try await Self.run("/usr/bin/pg_restore", ["--no-owner", "--dbname", restoredURL, dump.path]) == 0)

        let restored = try await Self.savryNode(directory.url.appendingPathComponent("restored"), logURL: restoredURL)
        defer { restored.stopWhenLeaving() }
        let after = try Self.canonical(try await restored.get("/api/app/recipes", token: ana).json)
        #expect(after == before && after.contains("Dumped soup"), "\(after)")
        #expect(try await restored.get("/api/app/recipes", token: ben).status == 401, "the erasure is in the dump too")
    }

    static func run(_ executable: String, _ arguments: [String]) async throws -> Int32 {
        let (status, output) = try await runCommand(URL(fileURLWithPath: executable), arguments)
        if status != 0 { Issue.record("\(executable) exited \(status): \(output)") }
        return status
    }

    /// A PostgreSQL server of the test's own, stopped and started again by `scripts/postgres.sh`.
    @Test func whileThePostgreSQLServerIsDownWritesAnswer503ReadsAreServedAndAllResumes() async throws {
        let server = try await OwnPostgresServer.start()
        defer { server.stopWhenLeaving() }
        let node = try await Self.savryNode(server.directory.url.appendingPathComponent("node"), logURL: server.url)
        defer { node.stopWhenLeaving() }
        let token = try await SavryEndToEndTests.signIn(node, "ana")
        let recipe = #"{"name":"Before","ingredients":[{"name":"salt"}],"instructions":["Stir"]}"#
        #expect(try await node.post("/api/app/recipes", recipe, token: token).status == 201)

        _ = try await TestPostgres.script("stop", server.cluster)
        let refused = try await node.post("/api/app/recipes", recipe.replacingOccurrences(of: "Before", with: "During"), token: token)
        #expect(refused.status == 503 && refused.headers["retry-after"] != nil && refused.json["message"] is String, "\(refused.status) \(refused.text)")
        // The server was down before the request: nothing of it reached it, and the answer says so.
        #expect((refused.json["message"] as? String)?.hasSuffix("nothing was saved, retry") == true, "\(refused.text)")
        let read = try await node.get("/api/app/recipes", token: token)
        #expect(read.status == 200 && read.text.contains("Before"))
        #expect(try await Self.eventually {
            let health = try await node.get("/health")
            return health.status == 503 && health.json["status"] as? String == "degraded"
        })

        _ = try await TestPostgres.script("resume", server.cluster)
        let retried = try await Self.eventually(within: .seconds(20)) {
            try await node.post("/api/app/recipes", recipe.replacingOccurrences(of: "Before", with: "After"), token: token).status == 201
        }
        #expect(retried, "writes resume without restarting the node")
        #expect(try await Self.eventually { try await node.get("/health").json["status"] as? String == "ok" })
        let after = try await node.get("/api/app/recipes", token: token)
        #expect(after.text.contains("Before") && after.text.contains("After"))
    }

    /// A file sent through node A is read through nodes B and C, which answer the next messages of
    /// the conversation (the model is sent the file's text) and keep copies; the user's erasure
    /// through A removes it from the shared log, B (running) removes its copy when its key store
    /// copies the erasure, and C (down meanwhile) at its next start.
    @Test func anUploadThroughOneNodeIsReadThroughAnother() async throws {
        let directory = try TemporaryDirectory()
        let logURL = try await TestPostgres.newDatabase()
        let a = try await Self.chatNode(directory.url.appendingPathComponent("a"), logURL: logURL)
        let b = try await Self.chatNode(directory.url.appendingPathComponent("b"), logURL: logURL)
        let c = try await Self.chatNode(directory.url.appendingPathComponent("c"), logURL: logURL)
        defer { a.stopWhenLeaving(); b.stopWhenLeaving(); c.stopWhenLeaving() }
        let signup = try await a.post("/api/signup/", #"{"email":"files@example.com","password":"long enough pass"}"#)
        let auth = ["Authorization": "Token \(try #require(signup.json["token"] as? String, "\(signup.text)"))"]
        let userId = try #require(signup.json["id"] as? Int)
        let form = [
            "--B\r\nContent-Disposition: form-data; name=\"message\"\r\n\r\nRead my notes\r\n",
            "--B\r\nContent-Disposition: form-data; name=\"files[]\"; filename=\"notes.txt\"\r\nContent-Type: text/plain\r\n\r\nquince harvest notes\r\n",
            "--B--\r\n",
        ].joined()
        let sent = try await a.post("/api/send-chat/", form, headers: auth.merging(["Content-Type": "multipart/form-data; boundary=B"]) { $1 })
        #expect(sent.status == 200, "\(sent.text)")
        let sessionId = try #require(sent.json["session_id"] as? Int)
        let onA = directory.url.appendingPathComponent("a/files/\(userId)")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: onA.path).first)
        let sealed = try #require(FileManager.default.contents(atPath: onA.appendingPathComponent(name).path))
        var position = try #require(sent.headers["x-log-position"])
        for (node, label) in [(b, "b"), (c, "c")] {
            let onNode = directory.url.appendingPathComponent("\(label)/files/\(userId)/\(name)")
            #expect(!FileManager.default.fileExists(atPath: onNode.path))
            let followUp = try await node.post(
                "/api/send-chat/", #"{"message":"and now?","session_id":\#(sessionId)}"#, headers: auth.merging(["X-Min-Position": position]) { $1 }
            )
            #expect(followUp.status == 200, "\(followUp.text)")
            position = try #require(followUp.headers["x-log-position"])
            #expect(
                FileManager.default.contents(atPath: onNode.path) == sealed,
                "node \(label) read the file from the shared log and kept it, sealed; its output ends:\n\(node.everythingSaid().suffix(3000))"
            )
        }

        await c.stop()
        let erased = try await a.delete("/api/account/", #"{"password":"long enough pass"}"#, headers: auth)
        #expect(erased.status == 204, "\(erased.text)")
        #expect(!FileManager.default.fileExists(atPath: onA.path))
        let onB = directory.url.appendingPathComponent("b/files/\(userId)")
        #expect(try await Self.eventually { !FileManager.default.fileExists(atPath: onB.path) }, "a running node drops its copy of an erased user's files")
        let onC = directory.url.appendingPathComponent("c/files/\(userId)")
        #expect(FileManager.default.fileExists(atPath: onC.path), "a node that was down still holds its copy, sealed under the destroyed key")
        let restarted = try await Self.chatNode(directory.url.appendingPathComponent("c"), logURL: logURL)
        defer { restarted.stopWhenLeaving() }
        #expect(!FileManager.default.fileExists(atPath: onC.path), "an erased user's files leave every node")
    }

    /// Failed logins for one account count once among the nodes: spread over two, the sixth attempt
    /// is refused on either, even with the right password; a success on one node clears them for both.
    @Test func failedLoginsForOneAccountCountAcrossNodes() async throws {
        let directory = try TemporaryDirectory()
        let logURL = try await TestPostgres.newDatabase()
        let a = try await Self.chatNode(directory.url.appendingPathComponent("a"), logURL: logURL)
        let b = try await Self.chatNode(directory.url.appendingPathComponent("b"), logURL: logURL)
        defer { a.stopWhenLeaving(); b.stopWhenLeaving() }
        let signup = try await a.post("/api/signup/", #"{"email":"guessed@example.com","password":"the right password"}"#)
        #expect(signup.status == 200 || signup.status == 201, "\(signup.text)")
        // Node b holds the account before it is asked: an unknown email is a failure too.
        let signedUp = ["X-Min-Position": try #require(signup.headers["x-log-position"])]
        let login: @Sendable (ServerProcess, String) async throws -> ServerProcess.Reply = { node, password in
            try await node.post("/api/login/", #"{"email":"guessed@example.com","password":"\#(password)"}"#, headers: signedUp)
        }
        for n in 0..<4 { #expect(try await login(n.isMultiple(of: 2) ? a : b, "guess \(n)").status == 400) }
        #expect(try await login(b, "the right password").status == 200, "a success clears the account's failures on every node")
        for n in 0..<5 {
            let reply = try await login(n.isMultiple(of: 2) ? a : b, "guess \(n)")
            #expect(reply.status == 400, "failure \(n + 1) of 5 after the success: \(reply.status) \(reply.text)")
        }
        for node in [a, b] {
            let refused = try await login(node, "the right password")
            #expect(refused.status == 429, "\(refused.status) \(refused.text)")
            #expect(Int(refused.headers["retry-after"] ?? "").map { $0 > 1 && $0 <= 15 * 60 + 1 } == true, "\(refused.headers)")
        }
    }

    /// The JSON with its keys sorted: two processes order a dictionary's keys differently.
    static func canonical(_ json: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: json, options: [.sortedKeys]), as: UTF8.self)
    }
}
