import Foundation
import ProductHosting
import ReadModels
import TestSupport
import Testing

/// Every product's kill cycles. A few each in CI; `<PRODUCT>_CRASH_CYCLES` runs more. No time
/// limit: a long run takes as long as it takes.
@Suite struct KillCycleTests {
    @Test func nuvieLosesNoAcknowledgedRatingToKillsDuringWritesAndReplays() async throws {
        try await KillCycles.run(NuvieRatingWrites(), defaultCycles: 20)
    }

    @Test func savryLosesNoAcknowledgedRecipeToKillsDuringWritesAndReplays() async throws {
        try await KillCycles.run(SavryRecipeWrites(), defaultCycles: 5)
    }

    @Test func chatLosesNoAcknowledgedMessageToKillsDuringWritesAndReplays() async throws {
        try await KillCycles.run(ChatMessageWrites(), defaultCycles: 3)
    }

    @Test func newsLosesNoAcknowledgedPreferenceToKillsDuringWritesAndReplays() async throws {
        try await KillCycles.run(NewsPreferenceWrites(), defaultCycles: 2)
    }
}

/// What a product's kill cycles write, and the check that every write it acknowledged is served
/// after the kills. Everything else (the kills, the replays, `verify`) is the engine's, the same for
/// every product.
protocol KillCycleWorkload: Sendable {
    associatedtype Product: EventSourcedProduct
    /// The binary's name; `<PRODUCT>_CRASH_CYCLES`, `_SEED` and `_CHECK_EVERY` are read from its upper case.
    var product: String { get }
    /// The product's demo server over `dataDirectory`, started and healthy.
    func serve(_ dataDirectory: URL) async throws -> ServerProcess
    /// Called once, on the first server: users, sessions, whatever the bursts need.
    func prepare(_ server: ServerProcess) async throws
    /// Writes on several connections until cancelled or the server is gone, recording each write
    /// the server acknowledged.
    func burst(against server: ServerProcess, cycle: Int) async
    /// How many writes the server has acknowledged so far.
    var acknowledgedSoFar: Int { get }
    /// After the last restart: expects every acknowledged write served; how many there were.
    func expectAcknowledgedServed(by server: ServerProcess) async throws -> Int
}

/// SIGKILLs a product's real binary at random instants, drawn from one seed: mid-burst of writes,
/// while it rebuilds its read models (`POST /admin/replay`), and an offline `<product> replay`.
/// After every restart (or every `<PRODUCT>_CRASH_CHECK_EVERY`th) the served read models must equal
/// a clean fold of the log: the engine's `Verify` against a reference read database of the test's
/// own, never crashed, which each check folds on from where the last one left it (a rebuild from 0 at
/// every check would grow with the log, and a thousand cycles with it). After the last cycle every
/// acknowledged write must be served, and after the last stop `<product> verify` must find the read
/// models identical to a rebuild from position 0.
enum KillCycles {
    static func run<W: KillCycleWorkload>(_ workload: W, defaultCycles: Int) async throws {
        let product = workload.product
        let environment = ProcessInfo.processInfo.environment
        let cycles = environment["\(product.uppercased())_CRASH_CYCLES"].flatMap(Int.init) ?? defaultCycles
        let checkEvery = max(1, environment["\(product.uppercased())_CRASH_CHECK_EVERY"].flatMap(Int.init) ?? 1)
        // A long run on a slow machine can be given minutes instead: it stops after the cycle that
        // ends past them and checks as after the last.
        let minutes = environment["\(product.uppercased())_CRASH_MINUTES"].flatMap(Double.init)
        var schedule = CrashSchedule(product: product)
        print("\(product) kill cycles: seed \(schedule.seed) (\(schedule.seedVariable)=\(schedule.seed) repeats the schedule), \(cycles) cycles, read models checked every \(checkEvery) restart(s)")
        let started = ContinuousClock.now
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("data")
        let read = data.appendingPathComponent("read")
        let reference = directory.url.appendingPathComponent("reference")
        var server = try await workload.serve(data)
        let adminToken = try ServerProcess.adminToken(dataDirectory: data)
        try await workload.prepare(server)

        var kinds: [CrashSchedule.Kind: Int] = [:], outcomes: [String: Int] = [:], checks = 0
        var onlineReplayTime: Duration?, offlineReplayTime: Duration?
        let deadline = minutes.map { started + .seconds($0 * 60) }
        var ran = 0
        for cycle in 0..<cycles {
            let kind = schedule.nextKind()
            kinds[kind, default: 0] += 1
            let recalibrate = cycle % 100 == 0
            if kind == .onlineReplay, onlineReplayTime == nil || recalibrate {
                onlineReplayTime = try await server.timeReplay(adminToken: adminToken)
            }
            let writing = server, acknowledgedBefore = workload.acknowledgedSoFar
            let burst = Task { await workload.burst(against: writing, cycle: cycle) }
            switch kind {
            case .writes, .offlineReplay:
                try await firstAcknowledgement(of: workload, after: acknowledgedBefore)
                try await Task.sleep(for: schedule.burstKill())
                await server.kill9()
            case .onlineReplay:
                try await Task.sleep(for: .milliseconds(20))
                let before = (ReadDirectoryState.current(read), ReadDirectoryState.generations(read))
                let refused = try await server.startReplay(adminToken: adminToken)
                #expect(refused == nil, "cycle \(cycle): POST /admin/replay answered \(refused ?? "")")
                try await Task.sleep(for: schedule.replayKill(expected: onlineReplayTime ?? .seconds(1)))
                await server.kill9()
                outcomes["online \(ReplayKillOutcome.classify(readDirectory: read, currentBefore: before.0, filesBefore: before.1).rawValue)", default: 0] += 1
            }
            burst.cancel()
            await burst.value

            if kind == .offlineReplay {
                if offlineReplayTime == nil || recalibrate {
                    offlineReplayTime = try await OfflineReplay.time(product, dataDirectory: data)
                }
                let before = (ReadDirectoryState.current(read), ReadDirectoryState.generations(read))
                let replay = try OfflineReplay(product, dataDirectory: data)
                try await Task.sleep(for: schedule.replayKill(expected: offlineReplayTime ?? .seconds(1)))
                await replay.kill9()
                outcomes["offline \(ReplayKillOutcome.classify(readDirectory: read, currentBefore: before.0, filesBefore: before.1).rawValue)", default: 0] += 1
            }

            server = try await workload.serve(data)
            ran = cycle + 1
            let outOfTime = deadline.map { ContinuousClock.now >= $0 } ?? false
            if ran % checkEvery == 0 || ran == cycles || outOfTime {
                #expect(try await server.waitUntilCaughtUp(), "cycle \(cycle): projections did not catch up")
                let masterKey = try DataDirectory(data).masterKey(for: W.Product.self, configured: nil, demoMode: true)
                let report = try await Verify.run(W.Product.self, dataDirectory: data, masterKey: masterKey, scratch: reference)
                #expect(report.isIdentical, "cycle \(cycle) (\(kind.rawValue)), seed \(schedule.seed): at \(report.position) these differ from a clean fold: \(report.differences)")
                checks += 1
            }
            if (cycle + 1) % 50 == 0 {
                print("\(product) kill cycles: \(cycle + 1)/\(cycles), \(Int((ContinuousClock.now - started).seconds)) s")
            }
            if outOfTime { break }
        }
        let acknowledged = try await workload.expectAcknowledgedServed(by: server)
        #expect(acknowledged > 0)
        let replayCycles = (kinds[.onlineReplay] ?? 0) + (kinds[.offlineReplay] ?? 0)
        let midReplayKills = outcomes.filter { $0.key.hasSuffix(ReplayKillOutcome.midRebuild.rawValue) }.values.reduce(0, +)
        if replayCycles >= 10 { #expect(midReplayKills > 0, "no kill landed mid-rebuild: \(outcomes)") }
        await server.stop()
        let verify = try await runProduct(product, ["verify", "--data-dir", data.path])
        #expect(verify.status == 0 && verify.output.contains("identical"), "after the last stop: \(verify.output)")
        print("""
            \(product) kill cycles: seed \(schedule.seed), \(ran) kills in \(Int((ContinuousClock.now - started).seconds)) s: \
            \(kinds.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")); \
            replay kills: \(outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")); \
            \(acknowledged) acknowledged writes served; read models equal a clean fold after \(checks) restarts, verify identical after the last stop
            """)
    }

    /// A kill mid-burst lands among writes being answered: it waits (at most 30 s) for the burst's
    /// first acknowledgement, which a loaded machine can take longer than the kill instant to give.
    private static func firstAcknowledgement(of workload: some KillCycleWorkload, after count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while workload.acknowledgedSoFar == count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
    }
}
