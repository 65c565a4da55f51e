import Foundation
import NIOConcurrencyHelpers
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Three nodes of one product over one PostgreSQL log, 32 writers spread over them for
/// `CLUSTER_WRITE_SECONDS` (30 unless set): afterwards every node has copied the whole log, and its
/// read models are identical, table by table, to a fresh fold of that log (`verify`).
@Suite(.enabled(if: TestPostgres.serverURL != nil, "needs ENGINE_TEST_POSTGRES_URL: scripts/postgres.sh run swift test"), .timeLimit(.minutes(8)))
struct ClusterConsistencyTests {
    static var writeTime: Duration { .seconds(Int(ProcessInfo.processInfo.environment["CLUSTER_WRITE_SECONDS"] ?? "") ?? 30) }
    static let writers = 32

    @Test func threeSavryNodesUnderThirtyTwoWritersFoldTheLogIdentically() async throws {
        let directory = try TemporaryDirectory()
        let logURL = try await TestPostgres.newDatabase()
        var nodes: [ServerProcess] = []
        for node in 0..<3 { nodes.append(try await SharedLogNodeTests.savryNode(directory.url.appendingPathComponent("node-\(node)"), logURL: logURL)) }
        defer { for node in nodes { node.stopWhenLeaving() } }
        var tokens: [String] = []
        for writer in 0..<Self.writers { tokens.append(try await SavryEndToEndTests.signIn(nodes[writer % 3], "cook-\(writer)")) }

        let acknowledged = try await Self.writeUntilTimeIsUp { [nodes, tokens] writer, n in
            let node = nodes[writer % 3]
            let created = try await node.post(
                "/api/app/recipes", #"{"name":"Dish \#(n) of cook \#(writer)","ingredients":[{"name":"salt"}],"instructions":["Stir"]}"#,
                token: tokens[writer], headers: ["Idempotency-Key": "w\(writer)-\(n)"]
            )
            guard created.status == 201, let id = created.json["recipeId"] as? String else { return false }
            return try await node.patch("/api/app/recipes/\(id)", #"{"servings":\#(n % 8 + 1)}"#, token: tokens[writer]).status == 200
        }
        #expect(acknowledged > Self.writers)
        let head = try await Self.expectEveryNodeHoldsTheWholeLog(nodes, logURL: logURL) { try await $0.get("/health").json["logHeadPosition"] as? Int }
        for (index, _) in nodes.enumerated() {
            let verify = try await runProduct(
                "savry", ["verify", "--data-dir", directory.url.appendingPathComponent("node-\(index)").path], environment: SharedLogNodeTests.clusterEnvironment("SAVRY")
            )
            #expect(verify.status == 0 && verify.output.contains("identical"), "node \(index) at \(head): \(verify.output)")
        }
        let counts = try await nodes.asyncMap { node in try await SavryEndToEndTests.walk(node, token: tokens[0], limit: 50).count }
        #expect(Set(counts).count == 1, "cook 0's recipes on each node: \(counts)")
    }

    @Test func threeNuvieNodesUnderThirtyTwoWritersFoldTheLogIdentically() async throws {
        let directory = try TemporaryDirectory()
        let logURL = try await TestPostgres.newDatabase()
        var nodes: [ServerProcess] = []
        for node in 0..<3 {
            let data = directory.url.appendingPathComponent("node-\(node)")
            nodes.append(try await ServerProcess.start("nuvie", outputDirectory: directory.url, environment: Self.nuvieEnvironment) { port in
                ServerProcess.demoArguments(dataDirectory: data, port: port) + ["--log-url", logURL]
            })
        }
        defer { for node in nodes { node.stopWhenLeaving() } }
        var tokens: [String] = []
        for writer in 0..<Self.writers {
            let login = try await nodes[writer % 3].post("/auth/login", #"{"provider":"dev","user_identifier":"movielens-\#(1 + writer % 3)"}"#)
            tokens.append(try #require(login.json["access_token"] as? String, "\(login.status) \(login.text)"))
        }

        let acknowledged = try await Self.writeUntilTimeIsUp { [nodes, tokens] writer, n in
            try await nodes[writer % 3].post(
                "/movies/\(1 + (n * 7 + writer) % 40)/rate", #"{"rating":\#(1 + (n + writer) % 5)}"#, token: tokens[writer], headers: ["Idempotency-Key": "w\(writer)-\(n)"]
            ).status == 200
        }
        #expect(acknowledged > Self.writers)
        let head = try await Self.expectEveryNodeHoldsTheWholeLog(nodes, logURL: logURL) { try await $0.get("/health").json["log_head_position"] as? Int }
        for (index, _) in nodes.enumerated() {
            let verify = try await runNuvie(["verify", "--data-dir", directory.url.appendingPathComponent("node-\(index)").path], environment: Self.nuvieEnvironment)
            #expect(verify.status == 0 && verify.output.contains("identical"), "node \(index) at \(head): \(verify.output)")
        }
        // Signed out everywhere through one node, a token opens nothing on another that had checked it
        // (it went on opening everything there for the rest of its day).
        let access = tokens[1]
        #expect(try await nodes[2].get("/users/me", token: access).status == 200)
        #expect(try await nodes[0].post("/auth/logout-all", "", token: access).status == 204)
        try await Task.sleep(for: .seconds(2))
        #expect(try await nodes[2].get("/users/me", token: access).status == 401)
    }

    /// `scripts/serve-cluster.sh` as a user runs it (three Savry nodes, nginx, PostgreSQL), and kill -9
    /// of one node while 32 writers write through nginx: every writer keeps being answered (nginx
    /// passes the dead node's users on), every acknowledged write is in the log (retried under its
    /// key, it records nothing new), and the script starts the killed node again, which catches up to
    /// read models identical to a fresh fold.
    @Test func aNodeKilledDuringWritesThroughNginxLosesNothingAcknowledgedAndCatchesUp() async throws {
        let directory = try TemporaryDirectory()
        let cluster = try await ServerProcess.cluster("savry", nodes: 3, directory: directory.url)
        defer { cluster.stopWhenLeaving() }
        let nodePorts = try Self.nodePorts(of: cluster, count: 3)
        var tokens: [String] = []
        for writer in 0..<Self.writers { tokens.append(try await SavryEndToEndTests.signIn(cluster, "cook-\(writer)")) }
        let recipe: @Sendable (Int, Int) -> String = { writer, n in #"{"name":"Dish \#(n) of cook \#(writer)","ingredients":[{"name":"salt"}],"instructions":["Stir"]}"# }

        let victim = directory.url.appendingPathComponent("node-3/server.pid")
        let killedPid = try #require(Int32(String(contentsOf: victim, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        let acknowledged = NIOLockedValueBox<[(writer: Int, n: Int, afterKill: Bool)]>([])
        let killed = NIOLockedValueBox(false)
        let killing = Task {
            try await Task.sleep(for: .seconds(2))
            kill(killedPid, SIGKILL)
            killed.withLockedValue { $0 = true }
        }
        _ = try await Self.writeUntilTimeIsUp(seconds: 8) { [cluster, tokens] writer, n in
            let reply = try? await cluster.post("/api/app/recipes", recipe(writer, n), token: tokens[writer], headers: ["Idempotency-Key": "w\(writer)-\(n)"])
            guard reply?.status == 201 else { return false }
            let afterKill = killed.withLockedValue { $0 }
            acknowledged.withLockedValue { $0.append((writer, n, afterKill)) }
            return true
        }
        try await killing.value
        let answeredAfterKill = Set(acknowledged.withLockedValue { $0 }.filter(\.afterKill).map(\.writer))
        #expect(answeredAfterKill.count == Self.writers, "writers answered after the kill: \(answeredAfterKill.sorted())")

        let restarted = try await SharedLogNodeTests.eventually(within: .seconds(120)) {
            let pid = (try? String(contentsOf: victim, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            guard let pid, pid != killedPid else { return false }
            return (try? await Self.health(port: nodePorts[2]))?.status == 200
        }
        #expect(restarted, "the script started node 3 again: \(cluster.everythingSaid().suffix(2_000))")
        let serverURL = try String(contentsOf: directory.url.appendingPathComponent("postgres/url"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let logURL = serverURL.replacingOccurrences(of: "/postgres?", with: "/savry?")
        let shared = try await TestPostgres.head(of: logURL)
        let caughtUp = try await SharedLogNodeTests.eventually(within: .seconds(30)) {
            try await nodePorts.asyncMap { try await Self.foldedHead(port: $0) }.allSatisfy { $0 == Int(shared) }
        }
        #expect(caughtUp, "every node at the shared head \(shared), its projections folded to it")
        // Every acknowledged recipe is there, on whichever node answers.
        let written = acknowledged.withLockedValue { $0 }
        for (writer, token) in tokens.enumerated() {
            let names = Set(try await SavryEndToEndTests.walk(cluster, token: token, limit: 50).compactMap { $0["name"] as? String })
            let lost = written.filter { $0.writer == writer && !names.contains("Dish \($0.n) of cook \(writer)") }.map(\.n)
            #expect(lost.isEmpty, "cook \(writer)'s acknowledged recipes missing: \(lost)")
        }
        // Retried under its key, an acknowledged write is recognised and records nothing new.
        for (writer, n, _) in written {
            let again = try await cluster.post("/api/app/recipes", recipe(writer, n), token: tokens[writer], headers: ["Idempotency-Key": "w\(writer)-\(n)"])
            #expect(again.status == 201 || again.status == 200, "acknowledged write w\(writer)-\(n) retried: \(again.status) \(again.text)")
        }
        #expect(try await TestPostgres.head(of: logURL) == shared, "a retried acknowledged write recorded something new")
        try await Self.expectEveryNodeVerifies(directory.url, nodes: 3)
        await cluster.stop()
    }

    /// The nodes' own ports, as `scripts/serve-cluster.sh` announced them.
    static func nodePorts(of cluster: ServerProcess, count: Int) throws -> [String] {
        let said = cluster.everythingSaid()
        return try (1...count).map { node in
            let line = try #require(said.split(separator: "\n").first { $0.hasPrefix("  node \(node) ") }, "\(said)")
            return try #require(line.split(separator: "http://127.0.0.1:").last?.prefix { $0.isNumber }).description
        }
    }

    /// `savry verify` on each node's data directory of a `scripts/serve-cluster.sh` cluster in
    /// `directory`, with its secrets: read models identical to a fresh fold.
    static func expectEveryNodeVerifies(_ directory: URL, nodes: Int) async throws {
        let secrets = try String(contentsOf: directory.appendingPathComponent("secrets.env"), encoding: .utf8)
        let environment = Dictionary(secrets.split(separator: "\n").compactMap { line -> (String, String)? in
            guard let equals = line.firstIndex(of: "=") else { return nil }
            return (String(line[..<equals]), String(line[line.index(after: equals)...]))
        }) { $1 }
        for node in 1...nodes {
            let verify = try await runProduct("savry", ["verify", "--data-dir", directory.appendingPathComponent("node-\(node)").path], environment: environment)
            #expect(verify.status == 0 && verify.output.contains("identical"), "node \(node): \(verify.output)")
        }
    }

    static func health(port: String) async throws -> ServerProcess.Reply {
        try await ServerProcess.send(.GET, "http://127.0.0.1:\(port)/health")
    }

    /// The node's log head once its projections have folded all of it (health "ok"), else nil.
    static func foldedHead(port: String) async throws -> Int? {
        foldedHead(of: try await Self.health(port: port).json)
    }

    /// The log head a `/health` answer reports once its projections have folded all of it, else nil.
    static func foldedHead(of health: [String: Any]) -> Int? {
        health["status"] as? String == "ok" ? health["logHeadPosition"] as? Int : nil
    }

    static var nuvieEnvironment: [String: String] {
        SharedLogNodeTests.clusterEnvironment("NUVIE").merging(["NUVIE_INTERNAL_TOKEN": "cluster-test-internal-token-cluster-test"]) { $1 }
    }

    /// Runs `write(writer, n)` in each writer, over and over, until the write time is up; how many
    /// writes were acknowledged.
    static func writeUntilTimeIsUp(seconds: Int? = nil, _ write: @escaping @Sendable (_ writer: Int, _ n: Int) async throws -> Bool) async throws -> Int {
        let deadline = ContinuousClock.now + (seconds.map { Duration.seconds($0) } ?? writeTime)
        return try await withThrowingTaskGroup(of: Int.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    var acknowledged = 0, n = 0
                    while ContinuousClock.now < deadline {
                        n += 1
                        if try await write(writer, n) { acknowledged += 1 }
                    }
                    return acknowledged
                }
            }
            return try await group.reduce(0, +)
        }
    }

    /// Waits until every node reports the same log head, the shared log's own, and returns it.
    static func expectEveryNodeHoldsTheWholeLog(
        _ nodes: [ServerProcess], logURL: String, head: @escaping @Sendable (ServerProcess) async throws -> Int?
    ) async throws -> Int {
        let shared = try await TestPostgres.head(of: logURL)
        let caughtUp = try await SharedLogNodeTests.eventually(within: .seconds(30)) {
            try await nodes.asyncMap { try await head($0) }.allSatisfy { $0 == Int(shared) }
        }
        let heads = try await nodes.asyncMap { try await head($0) }
        #expect(caughtUp, "every node at the shared head \(shared): \(heads)")
        return Int(shared)
    }
}

extension Array where Element: Sendable {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async throws -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
