import ArgumentParser
import ChildProcesses
import Foundation

/// The wrk Lua script of `nuvie-bench soak`: every request carries a random user's token and is
/// valid by design (existing films, ratings 1–5, watchlist add or remove, non-empty search words),
/// so any non-2xx answer is an error. Each thread counts the statuses it got; `done` adds them up.
enum SoakScript {
    static let searchWords = ["star", "love", "war", "man", "day", "night", "king", "life", "dark", "girl", "city", "time"]

    static func lua(tokens: [String], movieIds: [Int64]) -> String {
        """
        tokens = {\(tokens.map { "\"\($0)\"" }.joined(separator: ","))}
        ids = {\(movieIds.map(String.init).joined(separator: ","))}
        words = {\(searchWords.map { "\"\($0)\"" }.joined(separator: ","))}
        statuses = {}
        local threads = {}
        local counter = 0

        function setup(thread)
          counter = counter + 1
          thread:set("thread_number", counter)
          table.insert(threads, thread)
        end

        function init(args)
          statuses = {}
          math.randomseed(os.time() + thread_number * 7919)
        end

        function request()
          local headers = {}
          headers["Authorization"] = "Bearer " .. tokens[math.random(#tokens)]
          local id = ids[math.random(#ids)]
          local pick = math.random(100)
          if pick <= 30 then
            return wrk.format("GET", "/movies/" .. id, headers)
          elseif pick <= 45 then
            return wrk.format("GET", "/feed/activities?limit=20", headers)
          elseif pick <= 60 then
            return wrk.format("GET", "/movies/search?q=" .. words[math.random(#words)] .. "&limit=20", headers)
          elseif pick <= 75 then
            return wrk.format("GET", "/movies/" .. id .. "/reviews?limit=20", headers)
          end
          headers["Content-Type"] = "application/json"
          if pick <= 90 then
            return wrk.format("POST", "/movies/" .. id .. "/rate", headers, '{"rating":' .. math.random(5) .. '}')
          end
          local action = "add"
          if math.random(2) == 1 then action = "remove" end
          return wrk.format("POST", "/movies/" .. id .. "/watchlist", headers, '{"action":"' .. action .. '"}')
        end

        function response(status, headers, body)
          statuses[status] = (statuses[status] or 0) + 1
        end

        function done(summary, latency, requests)
          local total = {}
          for _, thread in ipairs(threads) do
            for status, count in pairs(thread:get("statuses")) do
              total[status] = (total[status] or 0) + count
            end
          end
          for status, count in pairs(total) do
            io.write(string.format("soak-status %d %d\\n", status, count))
          end
          io.write(string.format("soak-errors connect %d read %d write %d timeout %d status %d\\n",
            summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout, summary.errors.status))
          io.write(string.format("soak-latency p50 %.2f p99 %.2f max %.2f\\n",
            latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
          io.write(string.format("soak-requests %d\\n", summary.requests))
        end
        """
    }
}

/// A running `wrk` with the soak script; its output goes to a file, read when it ends.
final class SoakLoad {
    struct Report {
        var requests = 0
        var requestsPerSecond = 0.0
        var statuses: [Int: Int] = [:]
        var socketErrors = 0
        var summary = ""

        /// Non-2xx answers and socket errors (connect, read, write, timeout).
        var errors: Int { socketErrors + statuses.filter { !(200..<300).contains($0.key) }.values.reduce(0, +) }
    }

    private let process: ChildProcess
    private let output: URL

    private init(process: ChildProcess, output: URL) {
        self.process = process
        self.output = output
    }

    static func start(_ wrk: String, url: String, script: String, connections: Int, seconds: Int, timeout: Int) throws -> SoakLoad {
        let output = URL(fileURLWithPath: script).deletingLastPathComponent().appendingPathComponent("wrk-output.txt")
        try Data().write(to: output)
        let process = try ChildProcess(
            executable: URL(fileURLWithPath: wrk), arguments: ["-t2", "-c\(connections)", "-d\(seconds)s", "--timeout", "\(timeout)s", "-s", script, url],
            environment: ProcessInfo.processInfo.environment, output: output
        )
        return SoakLoad(process: process, output: output)
    }

    var isRunning: Bool { process.isRunning }

    /// Waits for wrk (stopping it if it outlived its time) and reads what it reported.
    func finish() throws -> Report {
        process.signal(SIGTERM)
        process.waitUntilExit()
        let text = try String(contentsOf: output, encoding: .utf8)
        var report = Report()
        var lines: [String] = []
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.first == "soak-status", fields.count == 3, let status = Int(fields[1]), let count = Int(fields[2]) {
                report.statuses[status] = count
            } else if fields.first == "soak-errors" {
                report.socketErrors = [2, 4, 6, 8].compactMap { $0 < fields.count ? Int(fields[$0]) : nil }.reduce(0, +)
                lines.append("socket errors: \(fields.dropFirst().joined(separator: " "))")
            } else if fields.first == "soak-latency" {
                lines.append("latency ms: \(fields.dropFirst().joined(separator: " "))")
            } else if fields.first == "soak-requests", fields.count == 2 {
                report.requests = Int(fields[1]) ?? 0
            }
        }
        report.requestsPerSecond = text.firstMatch(of: /Requests\/sec:\s+([\d.]+)/).flatMap { Double($0.1) } ?? 0
        let statusLine = report.statuses.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        report.summary = (["requests: \(report.requests) (\(String(format: "%.0f", report.requestsPerSecond)) req/s); statuses \(statusLine); errors (non-2xx + socket) \(report.errors)"] + lines)
            .joined(separator: "\n")
        guard report.requests > 0 else { throw ValidationError("wrk reported no requests:\n\(text)") }
        return report
    }
}
