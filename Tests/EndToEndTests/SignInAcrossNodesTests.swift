import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// A token issued through node a is accepted by node b at once, though b has not yet copied the
/// sign-in (b is stopped meanwhile, and asked the moment it runs again): b looks for it again once
/// it holds the log as it is now, rather than answering 401. nginx routes a client by its token, so
/// its first request after signing in usually reaches another node.
@Suite(.enabled(if: TestPostgres.serverURL != nil, "needs ENGINE_TEST_POSTGRES_URL: scripts/postgres.sh run swift test"), .timeLimit(.minutes(5)))
struct SignInAcrossNodesTests {
    @Test func aChatTokenIssuedThroughOneNodeIsAcceptedAtOnceByAnother() async throws {
        let directory = try TemporaryDirectory()
        let logURL = try await TestPostgres.newDatabase()
        let a = try await SharedLogNodeTests.chatNode(directory.url.appendingPathComponent("a"), logURL: logURL)
        defer { a.stopWhenLeaving() }
        let b = try await SharedLogNodeTests.chatNode(directory.url.appendingPathComponent("b"), logURL: logURL)
        defer { b.process.signal(SIGCONT); b.stopWhenLeaving() }
        try await Self.askRightAfterSigningIn(b, product: "chat", at: "/api/chat/sessions/") { attempt in
            let signup = try await a.post("/api/signup/", #"{"email":"roaming-\#(attempt)@example.com","password":"the right password"}"#)
            return ["Authorization": "Token \(try #require(signup.json["token"] as? String, "\(signup.text)"))"]
        }
    }

    /// The same for Savry's first sign-in (a new user) and Nuvie's sign-in (a new session).
    @Test(arguments: ["savry", "nuvie"]) func aSignInThroughOneNodeIsAcceptedAtOnceByAnother(product: String) async throws {
        let directory = try TemporaryDirectory()
        let logURL = try await TestPostgres.newDatabase()
        let node = { (name: String) in
            let data = directory.url.appendingPathComponent(name)
            return try await product == "savry" ? SharedLogNodeTests.savryNode(data, logURL: logURL) : ServerProcess.start(
                "nuvie", outputDirectory: directory.url, environment: ClusterConsistencyTests.nuvieEnvironment
            ) { ServerProcess.demoArguments(dataDirectory: data, port: $0) + ["--log-url", logURL] }
        }
        let a = try await node("a")
        defer { a.stopWhenLeaving() }
        let b = try await node("b")
        defer { b.process.signal(SIGCONT); b.stopWhenLeaving() }
        try await Self.askRightAfterSigningIn(b, product: product, at: product == "savry" ? "/api/app/recipes" : "/users/me") { attempt in
            let token = try await product == "savry"
                ? SavryEndToEndTests.signIn(a, "roaming-cook-\(attempt)")
                : #require(try await a.post("/auth/login", #"{"provider":"dev","user_identifier":"movielens-1"}"#).json["access_token"] as? String)
            return ["Authorization": "Bearer \(token)"]
        }
    }

    /// Signs in (through another node) while `node` is stopped, then asks `node` for `path` the moment
    /// it runs again, until its metrics show it was still behind when asked (it found the token only
    /// after catching up): whether it was depends on which of its tasks runs first. Every answer must
    /// be 200.
    static func askRightAfterSigningIn(
        _ node: ServerProcess, product: String, at path: String, signIn: (_ attempt: Int) async throws -> [String: String]
    ) async throws {
        for attempt in 1...Self.attempts {
            node.process.signal(SIGSTOP)
            let headers = try await signIn(attempt)
            node.process.signal(SIGCONT)
            let reply = try await node.get(path, headers: headers)
            #expect(reply.status == 200, "attempt \(attempt): \(reply.status) \(reply.text)")
            if try await foundAfterCatchingUp(node, product: product) > 0 { return }
        }
        Issue.record("the node had caught up before every one of \(Self.attempts) requests: the test never asked it while it was behind")
    }

    /// Beside the whole suite on two cores a stopped node sometimes catches up before it is asked five
    /// times running (seen once in a full run); each attempt costs a sign-in.
    static let attempts = 12

    /// How many lookups `node` answered only after catching up with the shared log.
    static func foundAfterCatchingUp(_ node: ServerProcess, product: String) async throws -> Int {
        let series = "\(product)_lookups_after_catching_up_total{outcome=\"found\"} "
        let line = try await node.get("/metrics").text.split(separator: "\n").first { $0.hasPrefix(series) }
        return line.flatMap { Int($0.dropFirst(series.count)) } ?? 0
    }
}

/// While a node cannot reach its shared log, a token it does not know may be one another node issued
/// a moment ago: it is answered 503 (ask again), not 401 (which tells the app to sign out). Tokens
/// the node knows are still accepted.
@Suite(.enabled(if: TestPostgres.serverURL != nil, "needs ENGINE_TEST_POSTGRES_URL: scripts/postgres.sh run swift test"), .timeLimit(.minutes(3)))
struct UnknownTokenDuringOutageTests {
    @Test func anUnknownTokenIsAnswered503WhileTheLogIsDown() async throws {
        let server = try await OwnPostgresServer.start()
        defer { server.stopWhenLeaving() }
        let directory = try TemporaryDirectory()
        let node = try await SharedLogNodeTests.chatNode(directory.url.appendingPathComponent("a"), logURL: server.url)
        defer { node.stopWhenLeaving() }
        let signup = try await node.post("/api/signup/", #"{"email":"outage@example.com","password":"the right password"}"#)
        let known = try #require(signup.json["token"] as? String, "\(signup.text)")
        let unknown = String(repeating: "ab", count: 20)
        #expect(try await node.get("/api/chat/sessions/", headers: ["Authorization": "Token \(unknown)"]).status == 401)

        _ = try await TestPostgres.script("stop", server.cluster)
        let refused = try await node.get("/api/chat/sessions/", headers: ["Authorization": "Token \(unknown)"])
        #expect(refused.status == 503, "\(refused.status) \(refused.text)")
        let listed = try await node.get("/api/chat/sessions/", headers: ["Authorization": "Token \(known)"])
        #expect(listed.status == 200, "\(listed.status) \(listed.text)")
    }
}
