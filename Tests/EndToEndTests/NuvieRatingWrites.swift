import Foundation
import NuvieProjections
import NIOConcurrencyHelpers
import TestSupport
import Testing

/// Six writers rate films as three demo users, each rating under its own Idempotency-Key. Every
/// acknowledged rating is in the log: retried with its key, it answers 200 and records nothing.
final class NuvieRatingWrites: KillCycleWorkload {
    typealias Product = NuvieProduct
    struct Rating: Sendable { var token: String; var movieId: Int; var rating: Int; var key: String }

    let product = "nuvie"
    private let tokens = NIOLockedValueBox<[String]>([])
    private let acknowledged = NIOLockedValueBox<[Rating]>([])

    func serve(_ dataDirectory: URL) async throws -> ServerProcess {
        try await ServerProcess.demo(dataDirectory: dataDirectory)
    }

    func prepare(_ server: ServerProcess) async throws {
        var signedIn: [String] = []
        for user in 1...3 {
            let login = try await server.post("/auth/login", #"{"provider":"dev","user_identifier":"movielens-\#(user)"}"#)
            signedIn.append(try #require(login.json["access_token"] as? String))
        }
        tokens.withLockedValue { $0 = signedIn }
    }

    func burst(against server: ServerProcess, cycle: Int) async {
        let tokens = tokens.withLockedValue { $0 }
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<6 {
                group.addTask {
                    var n = 0
                    while !Task.isCancelled {
                        n += 1
                        let sent = Rating(token: tokens[worker % 3], movieId: 1 + (n + worker) % 5, rating: 1 + (n * 7 + worker) % 5, key: "c\(cycle)-w\(worker)-\(n)")
                        guard let reply = try? await Self.rate(sent, on: server) else { return }
                        if reply.status == 200 { self.acknowledged.withLockedValue { $0.append(sent) } }
                    }
                }
            }
        }
    }

    var acknowledgedSoFar: Int { acknowledged.withLockedValue { $0.count } }

    func expectAcknowledgedServed(by server: ServerProcess) async throws -> Int {
        let head = try #require(try await server.get("/health").json["log_head_position"] as? Int)
        let ratings = acknowledged.withLockedValue { $0 }
        let statuses = try await withThrowingTaskGroup(of: UInt.self) { group in
            var statuses: [UInt] = []
            for (index, sent) in ratings.enumerated() {
                if index >= 8, let status = try await group.next() { statuses.append(status) }
                group.addTask { try await Self.rate(sent, on: server).status }
            }
            for try await status in group { statuses.append(status) }
            return statuses
        }
        #expect(statuses.count == ratings.count && statuses.allSatisfy { $0 == 200 }, "acknowledged ratings retried with their keys")
        #expect(try await server.get("/health").json["log_head_position"] as? Int == head, "a retried rating recorded something")
        return ratings.count
    }

    private static func rate(_ sent: Rating, on server: ServerProcess) async throws -> ServerProcess.Reply {
        try await server.post("/movies/\(sent.movieId)/rate", #"{"rating":\#(sent.rating)}"#, token: sent.token, headers: ["Idempotency-Key": sent.key])
    }
}
