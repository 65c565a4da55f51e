import ArgumentParser
import Foundation

/// The `nuvie` the benchmarks start: the one built beside this binary (`swift build --product nuvie`
/// puts both in the same directory).
enum NuvieExecutable {
    static func url() throws -> URL {
        let beside = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("nuvie")
        guard FileManager.default.isExecutableFile(atPath: beside.path) else {
            throw ValidationError("\(beside.path) is missing: build it first (swift build -c release --product nuvie)")
        }
        return beside
    }
}
