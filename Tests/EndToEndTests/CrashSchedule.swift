import SeededRandom
import Foundation

/// What a crash test does in each cycle and when it kills, drawn from one seed: `<PRODUCT>_CRASH_SEED`
/// replays a run's schedule (timing on the machine still varies), otherwise a new seed is drawn and printed.
struct CrashSchedule {
    enum Kind: String, CaseIterable {
        /// SIGKILL the server mid-burst of writes.
        case writes
        /// Start `POST /admin/replay` during a burst of writes, SIGKILL the server while it rebuilds.
        case onlineReplay
        /// SIGKILL the server mid-burst, then run `<product> replay --data-dir` offline and SIGKILL that.
        case offlineReplay
    }

    let seed: UInt64
    let seedVariable: String
    private var random: SplitMix64

    init(product: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        seedVariable = "\(product.uppercased())_CRASH_SEED"
        seed = environment[seedVariable].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64(UInt32.max))
        random = SplitMix64(seed: seed)
    }

    /// Half the cycles kill a burst of writes; a quarter each kill a replay in the server or offline.
    mutating func nextKind() -> Kind {
        switch Int.random(in: 0..<4, using: &random) {
        case 0, 1: .writes
        case 2: .onlineReplay
        default: .offlineReplay
        }
    }

    /// A kill instant in the burst of writes (30–600 ms).
    mutating func burstKill() -> Duration {
        .milliseconds(Int.random(in: 30...600, using: &random))
    }

    /// A kill instant uniformly within the first 70 % of a replay that takes about `expected` when
    /// left alone. `expected` is measured once in a while, and a replay under the suite's other load
    /// often finishes sooner: drawn over all of it, half the kills of a run could land after the
    /// swap and none mid-rebuild, which the test requires to have seen.
    mutating func replayKill(expected: Duration) -> Duration {
        let limit = max(20, Int(expected.seconds * 700))
        return .milliseconds(Int.random(in: 1...limit, using: &random))
    }
}

/// Where a replay was when it was killed, told by the read-model directory afterwards: `CURRENT`
/// unchanged and a new generation file present means it was killed mid-rebuild.
enum ReplayKillOutcome: String, CaseIterable {
    case beforeRebuildStarted, midRebuild, afterSwap

    static func classify(readDirectory: URL, currentBefore: String, filesBefore: Set<String>) -> ReplayKillOutcome {
        let current = ReadDirectoryState.current(readDirectory)
        if current != currentBefore { return .afterSwap }
        let added = ReadDirectoryState.generations(readDirectory).subtracting(filesBefore)
        return added.isEmpty ? .beforeRebuildStarted : .midRebuild
    }
}

enum ReadDirectoryState {
    /// The generation `CURRENT` names (`read.sqlite` when there is none).
    static func current(_ directory: URL) -> String {
        let text = try? String(contentsOf: directory.appendingPathComponent("CURRENT"), encoding: .utf8)
        let name = text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return name.isEmpty ? "read.sqlite" : name
    }

    /// The read-model generation files (`read*.sqlite`, without `-wal`/`-shm`).
    static func generations(_ directory: URL) -> Set<String> {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return Set(names.filter { $0.hasPrefix("read") && $0.hasSuffix(".sqlite") })
    }
}
