import ChildProcesses
import Foundation

/// `vs-peer.sh`'s loads for `nuvie-bench memory`: `wrk -t2` reading one path with the first user's
/// token, 64 users (or one) rating films as `rate.lua` does, or both at once.
struct WrkLoad {
    let wrk: String
    let base: String
    let tokens: [String]
    let scratch: URL

    /// Reads `path` on `64 - raters` connections while `raters` rate (nil path: only the ratings,
    /// one user's when `raters` is 1, on 64 connections), for `seconds`.
    func run(path: String?, raters: Int, seconds: Int) throws {
        guard let path else {
            return try start(script: ratings(tokens: raters == 1 ? Array(tokens.prefix(1)) : tokens), connections: 64, seconds: seconds).wait()
        }
        let rating = try raters > 0 ? start(script: ratings(tokens: tokens), connections: raters, seconds: seconds) : nil
        try start(path: path, connections: 64 - raters, seconds: seconds).wait()
        rating?.wait()
    }

    func start(path: String, connections: Int, seconds: Int) throws -> Running {
        try start(script: """
            request = function()
              return wrk.format("GET", "\(path)", {["Authorization"] = "Bearer \(tokens[0])"})
            end
            """, connections: connections, seconds: seconds)
    }

    private func ratings(tokens: [String]) -> String {
        """
        local films = {1,2,3,5,6,7,10,11,16,17,19,21,25,29,32,34,36,39,47,50,62,95,104,110,111,141,150,153,160,165}
        local tokens = {\(tokens.map { "\"\($0)\"" }.joined(separator: ","))}
        local n = 0
        request = function()
          n = n + 1
          local h = {["Content-Type"] = "application/json", ["Authorization"] = "Bearer " .. tokens[(n % #tokens) + 1]}
          local body = string.format('{"rating":%d}', (math.floor(n / #tokens) % 5) + 1)
          return wrk.format("POST", "/movies/" .. films[(n % #films) + 1] .. "/rate", h, body)
        end
        """
    }

    private func start(script: String, connections: Int, seconds: Int) throws -> Running {
        let scriptFile = scratch.appendingPathComponent("load-\(UUID().uuidString).lua")
        try Data(script.utf8).write(to: scriptFile)
        return Running(process: try ChildProcess(
            executable: URL(fileURLWithPath: wrk), arguments: ["-t\(min(2, connections))", "-c\(connections)", "-d\(seconds)s", "-s", scriptFile.path, base],
            environment: ProcessInfo.processInfo.environment, output: scratch.appendingPathComponent("wrk-\(UUID().uuidString).txt")
        ))
    }

    struct Running {
        let process: ChildProcess

        func wait() { process.waitUntilExit() }

        func stop() {
            process.signal(SIGINT)
            process.waitUntilExit()
        }
    }
}
