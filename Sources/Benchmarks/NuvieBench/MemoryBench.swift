import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore

/// `nuvie-bench memory`: the server's resident memory (sampled every 100 ms, and the kernel's own
/// high-water mark, VmHWM) through issue 33's four moments: a first start on an empty data directory
/// (import, fold, training), `vs-peer.sh`'s loads, 64 users rating, and a replay of every projection
/// while reads go on.
struct MemoryBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "memory",
        abstract: "Resident memory of `nuvie serve --demo` through a first start, vs-peer's loads, 64-user ratings and a replay while serving.",
        discussion: "Needs wrk on PATH (Debian: apt-get install wrk). Each phase prints its peak RSS (sampled), its anonymous and file-backed peaks, and VmHWM at its end (reset between phases through /proc/PID/clear_refs)."
    )

    @Option(help: "Port for the server.")
    var port = 18100

    @Option(help: "Seconds of each load phase.")
    var seconds = 60

    func run() async throws {
        NuvieBench.bootstrapLogging()
        let wrk = try HTTPBench.wrk()
        let scratch = try BenchFigures.scratchDirectory("memory")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let base = "http://127.0.0.1:\(port)"
        let adminToken = UUID().uuidString + UUID().uuidString
        let server = try ServerChild(dataDirectory: scratch.appendingPathComponent("data"), port: port, environment: ["NUVIE_ADMIN_TOKEN": adminToken])
        defer { server.stop() }
        let memory = MemorySampler(pid: server.pid)
        memory.start()
        defer { memory.stop() }
        var rows: [(String, ProcessMemory, Int)] = []
        func endPhase(_ name: String) async {
            let row = (name, memory.takePeak(), ProcessMemory.read(pid: server.pid).highWater)
            let gauges = (try? await HeapGauges.read(base)) ?? "gauges unread"
            BenchFigures.progress("\(name): peak \(row.1.description), VmHWM \(row.2 / 1024) MB; at its end \(gauges)")
            rows.append(row)
            ProcessMemory.resetHighWater(pid: server.pid)
        }

        let started = ContinuousClock.now
        try await HTTPBench.waitUntilServing("\(base)/health")
        BenchFigures.progress("healthy after \(String(format: "%.1f", (ContinuousClock.now - started).seconds)) s")
        try await Task.sleep(for: .seconds(5))
        await endPhase("first start on an empty directory (import, fold, training) and 5 s after")

        let tokens = try await (1...64).asyncMap { try await HTTPBench.login(base, user: "movielens-\($0)") }
        let load = WrkLoad(wrk: wrk, base: base, tokens: tokens, scratch: scratch)
        let share = max(1, seconds / Self.peerLoads.count)
        for (path, raters) in Self.peerLoads { try load.run(path: path, raters: raters, seconds: share) }
        await endPhase("vs-peer.sh's loads, \(share) s each")

        try load.run(path: nil, raters: 64, seconds: seconds)
        await endPhase("64 users rating, \(seconds) s")
        try await Task.sleep(for: .seconds(30))
        await endPhase("30 s idle after")

        do {
            let reads = try load.start(path: "/feed/activities?limit=20", connections: 16, seconds: 600)
            defer { reads.stop() }
            try await Self.replay(base, adminToken: adminToken)
        }
        await endPhase("a replay of every projection beside 16 connections reading the feed")

        print("nuvie serve --demo, release build; RSS sampled every 100 ms (peak), VmHWM read at each phase's end and reset for the next")
        print("| phase | peak RSS MB | anonymous MB | files MB | VmHWM MB |")
        print("|---|---|---|---|---|")
        for (name, peak, highWater) in rows {
            print("| \(name) | \(peak.total / 1024) | \(peak.anonymous / 1024) | \(peak.files / 1024) | \(highWater / 1024) |")
        }
    }

    /// `vs-peer.sh`'s rows: a path read on 64 connections, the ratings (nil path), one user rating,
    /// and `/movies/1` read on 56 connections while 8 rate.
    static let peerLoads: [(path: String?, raters: Int)] = [
        ("/movies/1", 0), ("/movies/1/reviews?limit=20", 0), ("/feed/activities?limit=20", 0), ("/movies/search?q=star", 0),
        ("/movies/search?q=the", 0), (nil, 64), (nil, 1), ("/movies/1", 8),
    ]

    /// `POST /admin/replay` of every projection, then `GET /admin/replay` until it is no longer running.
    static func replay(_ base: String, adminToken: String) async throws {
        var start = HTTPClientRequest(url: "\(base)/admin/replay")
        start.method = .POST
        start.headers.add(name: "X-Admin-Token", value: adminToken)
        start.headers.add(name: "Content-Type", value: "application/json")
        start.body = .bytes(ByteBuffer(string: "{}"))
        let answer = try await HTTPClient.shared.execute(start, timeout: .seconds(30))
        guard answer.status == .accepted else { throw ValidationError("POST /admin/replay answered \(answer.status.code)") }
        var status = HTTPClientRequest(url: "\(base)/admin/replay")
        status.headers.add(name: "X-Admin-Token", value: adminToken)
        for _ in 0..<6000 {
            try await Task.sleep(for: .milliseconds(100))
            let response = try await HTTPClient.shared.execute(status, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 1 << 20)
            let json = try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any]
            if let state = json?["state"] as? String, state != "running" {
                guard state == "finished" else { throw ValidationError("the replay ended \(state): \(json?["error"] ?? "")") }
                return
            }
        }
        throw ValidationError("the replay did not finish within 10 minutes")
    }
}
