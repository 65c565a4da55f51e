import Foundation
import ProductHosting
import TestSupport
import Testing

/// Operator commands fold their copies of the read models (personal data in clear) into the data
/// directory's `scratch/`, private to the user; what a killed command left there goes at the next
/// command or server start.
@Suite struct ScratchSpaceTests {
    @Test func aScratchDirectoryIsPrivateAndNamedForItsProcess() throws {
        let directory = DataDirectory(try TemporaryDirectory().url)
        let scratch = try directory.makeScratch("verify")
        #expect(scratch.deletingLastPathComponent().standardizedFileURL == directory.scratch.standardizedFileURL)
        #expect(scratch.lastPathComponent.hasPrefix("\(getpid())-verify-"))
        for made in [scratch, directory.scratch] {
            let mode = try #require(try FileManager.default.attributesOfItem(atPath: made.path)[.posixPermissions] as? Int)
            #expect(mode & 0o077 == 0, "\(made.path) is \(String(mode, radix: 8))")
        }
    }

    @Test func whatAnEndedProcessLeftIsRemovedByTheNextCommandAndByAServerStart() async throws {
        let directory = DataDirectory(try TemporaryDirectory().url)
        let ended = try Self.endedProcess()
        let abandoned = { directory.scratch.appendingPathComponent("\(ended)-as-of-0a1b2c3d") }
        let running = directory.scratch.appendingPathComponent("\(getppid())-verify-4e5f6a7b")
        for made in [abandoned(), running] {
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
            try Data("read models".utf8).write(to: made.appendingPathComponent("read.sqlite"))
        }

        let own = try directory.makeScratch("verify")
        #expect(!FileManager.default.fileExists(atPath: abandoned().path), "left by a process that ended")
        #expect(FileManager.default.fileExists(atPath: running.path), "its process still runs")
        #expect(FileManager.default.fileExists(atPath: own.path))

        try FileManager.default.createDirectory(at: abandoned(), withIntermediateDirectories: true)
        try await directory.whileServing {}
        #expect(!FileManager.default.fileExists(atPath: abandoned().path), "a server start removes it too")
        #expect(FileManager.default.fileExists(atPath: own.path))
    }

    /// A pid no process has: one past the largest the kernel gives out.
    private static func endedProcess() throws -> Int32 {
        let maximum = try String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        return try #require(Int32(maximum)) + 1
    }
}
