import ReadModels
import EventLog
import Foundation
import TestSupport
import Logging
import NuvieProjections
import Synchronization
import Testing

/// Starts the real server and kills it with SIGKILL at random instants: mid-burst of ratings, while
/// it rebuilds its read models (`POST /admin/replay`), and kills an offline `nuvie replay` mid-run.
/// Proves that every acknowledged rating is in the log, that after each restart (or every
/// `NUVIE_CRASH_CHECK_EVERY`th) the served read models equal a clean fold of the log, and at the end
/// that they equal a clean rebuild from position 0.
@Suite struct CrashSafetyTests {
    struct Acknowledged: Sendable { var token: String; var movieId: Int; var rating: Int; var key: String }

    /// Kills per run: 20 in CI; `NUVIE_CRASH_CYCLES` runs more for a longer soak.
    static let cycles = ProcessInfo.processInfo.environment["NUVIE_CRASH_CYCLES"].flatMap(Int.init) ?? 20
    /// Compare the read models with a clean fold after every Nth restart (default: every restart).
    static let checkEvery = max(1, ProcessInfo.processInfo.environment["NUVIE_CRASH_CHECK_EVERY"].flatMap(Int.init) ?? 1)
    /// A replay left to finish is timed at the first cycle of its kind and every this many cycles, to
    /// spread the kills over a replay's whole run as the log grows.
    static let recalibrateEvery = 100

    @Test func killNineDuringWritesAndReplaysLosesNothingAcknowledged() async throws {
        var schedule = CrashSchedule(product: "nuvie")
        print("crash test: seed \(schedule.seed) (\(schedule.seedVariable)=\(schedule.seed) repeats the schedule), \(Self.cycles) cycles, read models compared every \(Self.checkEvery) restart(s)")
        let started = ContinuousClock.now
        let directory = try TemporaryDirectory()
        let dataDirectory = directory.url.appendingPathComponent("data")
        let readDirectory = dataDirectory.appendingPathComponent("read")
        var server = try await ServerProcess.demo(dataDirectory: dataDirectory)
        let adminToken = try ServerProcess.adminToken(dataDirectory: dataDirectory)
        var tokens: [String] = []
        for user in 1...3 {
            let login = try await server.post("/auth/login", #"{"provider":"dev","user_identifier":"movielens-\#(user)"}"#)
            tokens.append(try #require(login.json["access_token"] as? String))
        }
        let check = try ReadModelCheck(dataDirectory: dataDirectory, scratch: directory.url)
        defer { check.close() }

        var acknowledged: [Acknowledged] = []
        var kinds: [CrashSchedule.Kind: Int] = [:]
        var outcomes: [String: Int] = [:]
        var onlineReplayTime: Duration?, offlineReplayTime: Duration?
        var checks = 0
        for cycle in 0..<Self.cycles {
            let kind = schedule.nextKind()
            kinds[kind, default: 0] += 1
            let recalibrate = cycle % Self.recalibrateEvery == 0
            if kind == .onlineReplay, onlineReplayTime == nil || recalibrate {
                onlineReplayTime = try await server.timeReplay(adminToken: adminToken)
            }
            let acked = AcknowledgedList()
            let burst = Self.burst(against: server, users: tokens, cycle: cycle, into: acked)
            switch kind {
            case .writes, .offlineReplay:
                try await Task.sleep(for: schedule.burstKill())
                await server.kill9()
            case .onlineReplay:
                try await Task.sleep(for: .milliseconds(20))
                let before = (ReadDirectoryState.current(readDirectory), ReadDirectoryState.generations(readDirectory))
                #expect(try await server.startReplay(adminToken: adminToken))
                try await Task.sleep(for: schedule.replayKill(expected: onlineReplayTime ?? .seconds(1)))
                await server.kill9()
                let outcome = ReplayKillOutcome.classify(readDirectory: readDirectory, currentBefore: before.0, filesBefore: before.1)
                outcomes["online \(outcome.rawValue)", default: 0] += 1
            }
            burst.cancel()
            await burst.value
            acknowledged += acked.list.withLock { $0 }

            if kind == .offlineReplay {
                if offlineReplayTime == nil || recalibrate {
                    offlineReplayTime = try await OfflineReplay.time(dataDirectory: dataDirectory)
                }
                let before = (ReadDirectoryState.current(readDirectory), ReadDirectoryState.generations(readDirectory))
                let replay = try OfflineReplay(dataDirectory: dataDirectory)
                try await Task.sleep(for: schedule.replayKill(expected: offlineReplayTime ?? .seconds(1)))
                await replay.kill9()
                let outcome = ReplayKillOutcome.classify(readDirectory: readDirectory, currentBefore: before.0, filesBefore: before.1)
                outcomes["offline \(outcome.rawValue)", default: 0] += 1
            }

            server = try await ServerProcess.demo(dataDirectory: dataDirectory)
            if (cycle + 1) % Self.checkEvery == 0 || cycle == Self.cycles - 1 {
                #expect(try await server.waitUntilCaughtUp(), "cycle \(cycle): projections did not catch up")
                do {
                    try check.compare()
                } catch {
                    Issue.record("cycle \(cycle) (\(kind.rawValue)), seed \(schedule.seed): \(error)")
                }
                checks += 1
            }
            if (cycle + 1) % 50 == 0 {
                print("crash test: \(cycle + 1)/\(Self.cycles) cycles, \(acknowledged.count) ratings acknowledged, \(Int((ContinuousClock.now - started).seconds)) s")
            }
        }
        #expect(acknowledged.count > 0)
        let replayCycles = (kinds[.onlineReplay] ?? 0) + (kinds[.offlineReplay] ?? 0)
        let midReplayKills = outcomes.filter { $0.key.hasSuffix(ReplayKillOutcome.midRebuild.rawValue) }.values.reduce(0, +)
        if replayCycles >= 10 { #expect(midReplayKills > 0, "no kill landed mid-rebuild: \(outcomes)") }

        // Every acknowledged rating is in the log: retrying it with its key records nothing new.
        let head = try #require(try await server.get("/health").json["log_head_position"] as? Int)
        let retried = try await Self.retry(acknowledged, against: server)
        #expect(retried.count == acknowledged.count && retried.allSatisfy { $0 == 200 })
        #expect(try await server.get("/health").json["log_head_position"] as? Int == head)
        await server.stop()

        // The read models the server kept through the crashes equal a clean rebuild from the log.
        let log = try EventLog(configuration: .init(directory: dataDirectory.appendingPathComponent("log")))
        defer { log.close() }
        let served = try ReadDatabase(directory: readDirectory)
        let rebuilt = try ReadDatabase(path: directory.url.appendingPathComponent("rebuild/read.sqlite").path)
        let keys = try demoKeyStore(of: dataDirectory)
        try ProjectionRunner(log: log, personalData: keys, database: served, logger: Logger(label: "test")).catchUp()
        try ProjectionRunner(log: log, personalData: keys, database: rebuilt, logger: Logger(label: "test")).catchUp()
        #expect(try served.canonicalDump() == rebuilt.canonicalDump())
        print("""
            crash test: seed \(schedule.seed), \(Self.cycles) kills in \(Int((ContinuousClock.now - started).seconds)) s: \
            \(kinds.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")); \
            replay kills: \(outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")); \
            \(acknowledged.count) acknowledged ratings retried, log head \(head); read models compared with a clean fold \(checks) times, \
            with a clean rebuild from 0 at the end
            """)
    }

    /// Six writers rating films as three users, each rating under its own Idempotency-Key, until cancelled or the server goes.
    static func burst(against server: ServerProcess, users: [String], cycle: Int, into acked: AcknowledgedList) -> Task<Void, Never> {
        Task {
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<6 {
                    group.addTask {
                        var n = 0
                        while !Task.isCancelled {
                            n += 1
                            let sent = Acknowledged(token: users[worker % 3], movieId: 1 + (n + worker) % 5, rating: 1 + (n * 7 + worker) % 5, key: "c\(cycle)-w\(worker)-\(n)")
                            guard let reply = try? await server.post(
                                "/movies/\(sent.movieId)/rate", #"{"rating":\#(sent.rating)}"#, token: sent.token, headers: ["Idempotency-Key": sent.key]
                            ) else { return }
                            if reply.status == 200 { acked.list.withLock { $0.append(sent) } }
                        }
                    }
                }
            }
        }
    }

    static func retry(_ acknowledged: [Acknowledged], against server: ServerProcess) async throws -> [UInt] {
        try await withThrowingTaskGroup(of: UInt.self) { group in
            var statuses: [UInt] = []
            for (index, sent) in acknowledged.enumerated() {
                if index >= 8, let status = try await group.next() { statuses.append(status) }
                group.addTask {
                    try await server.post("/movies/\(sent.movieId)/rate", #"{"rating":\#(sent.rating)}"#, token: sent.token, headers: ["Idempotency-Key": sent.key]).status
                }
            }
            for try await status in group { statuses.append(status) }
            return statuses
        }
    }
}

final class AcknowledgedList: Sendable {
    let list = Mutex<[CrashSafetyTests.Acknowledged]>([])
}
