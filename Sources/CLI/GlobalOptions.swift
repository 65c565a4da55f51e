import ArgumentParser
import Foundation
import Logging

struct GlobalOptions: ParsableArguments {
    @Option(help: "Where the event log and read models live (env NUVIE_DATA_DIR).")
    var dataDir: String = ProcessInfo.processInfo.environment["NUVIE_DATA_DIR"] ?? "nuvie-data"

    @Option(help: "trace, debug, info, notice, warning, error or critical (env NUVIE_LOG_LEVEL).")
    var logLevel: String = ProcessInfo.processInfo.environment["NUVIE_LOG_LEVEL"] ?? "info"

    var dataDirectory: URL { URL(fileURLWithPath: dataDir, isDirectory: true).standardizedFileURL }

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown log level \(logLevel)") }
    }
}
