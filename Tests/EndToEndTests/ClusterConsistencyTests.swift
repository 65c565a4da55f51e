import Foundation
import Synchronization
import Testing
import TestSupport

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
    }

    /// kill -9 of one node while 32 writers write through all three: the others keep answering, every
    /// acknowledged write is in the log (retried under its key, it records nothing new), and the killed
    /// node restarts on its data directory and catches up to read models identical to a fresh fold.
    @Test func aNodeKilledDuringWritesLosesNothingAcknowledgedAndCatchesUp() async throws {
        let directory = try TemporaryDirectory()
        let logURL = try await TestPostgres.newDatabase()
        let data = (0..<3).map { directory.url.appendingPathComponent("node-\($0)") }
        var nodes: [ServerProcess] = []
        for node in 0..<3 { nodes.append(try await SharedLogNodeTests.savryNode(data[node], logURL: logURL)) }
        defer { for node in nodes { node.stopWhenLeaving() } }
        var tokens: [String] = []
        for writer in 0..<Self.writers { tokens.append(try await SavryEndToEndTests.signIn(nodes[0], "cook-\(writer)")) }
        let recipe: @Sendable (Int, Int) -> String = { writer, n in #"{"name":"Dish \#(n) of cook \#(writer)","ingredients":[{"name":"salt"}],"instructions":["Stir"]}"# }

        let acknowledged = Mutex<[(writer: Int, n: Int)]>([])
        let victim = nodes[2]
        let killing = Task {
            try await Task.sleep(for: .seconds(2))
            await victim.kill9()
        }
        let survivorsAnswered = try await Self.writeUntilTimeIsUp(seconds: 6) { [nodes, tokens] writer, n in
            let reply = try? await nodes[writer % 3].post(
                "/api/app/recipes", recipe(writer, n), token: tokens[writer], headers: ["Idempotency-Key": "w\(writer)-\(n)"]
            )
            guard reply?.status == 201 else { return false }
            acknowledged.withLock { $0.append((writer, n)) }
            return writer % 3 != 2
        }
        try await killing.value
        #expect(survivorsAnswered > Self.writers, "the surviving nodes kept answering")

        nodes[2] = try await SharedLogNodeTests.savryNode(data[2], logURL: logURL)
        let head = try await Self.expectEveryNodeHoldsTheWholeLog(nodes, logURL: logURL) { try await $0.get("/health").json["logHeadPosition"] as? Int }
        for (writer, n) in acknowledged.withLock({ $0 }) {
            let again = try await nodes[(writer + 1) % 3].post(
                "/api/app/recipes", recipe(writer, n), token: tokens[writer], headers: ["Idempotency-Key": "w\(writer)-\(n)"]
            )
            #expect(again.status == 201 || again.status == 200, "acknowledged write w\(writer)-\(n) retried: \(again.status) \(again.text)")
        }
        #expect(try await TestPostgres.head(of: logURL) == UInt64(head), "a retried acknowledged write recorded something new: it was lost")
        let verify = try await runProduct("savry", ["verify", "--data-dir", data[2].path], environment: SharedLogNodeTests.clusterEnvironment("SAVRY"))
        #expect(verify.status == 0 && verify.output.contains("identical"), "\(verify.output)")
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
