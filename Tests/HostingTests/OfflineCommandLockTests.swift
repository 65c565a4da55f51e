import Foundation
import ProductHosting
import TestSupport
import Testing

/// An offline command that must run with no server (a replay, an erasure, a restore, an import) holds
/// the directory's lock for its whole run: a server started meanwhile (systemd restarting one) is
/// refused, naming the command, and so is a second such command.
@Suite struct OfflineCommandLockTests {
    @Test func noServerStartsWhileAnOfflineCommandRuns() async throws {
        let temporary = try TemporaryDirectory()
        let directory = DataDirectory(temporary.url)
        try await directory.whileStopped("replay") {
            let server = await #expect(throws: DataDirectoryError.self) { try await directory.whileServing {} }
            #expect(server.map { "\($0)" }?.contains("`replay` (pid \(getpid())) is running") == true, "\(server.map { "\($0)" } ?? "")")
            await #expect(throws: DataDirectoryError.self) { try await directory.whileStopped("erase") {} }
            #expect(directory.runningServer == nil, "a command is not a server")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.serverPidFile.path))
        try await directory.whileServing {
            #expect(directory.runningServer == getpid())
            let command = await #expect(throws: DataDirectoryError.self) { try await directory.whileStopped("replay") {} }
            #expect(command.map { "\($0)" }?.contains("already serves") == true)
        }
    }
}
