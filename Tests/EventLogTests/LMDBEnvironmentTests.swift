import CLMDB
import Foundation
import TestSupport
import Testing
@testable import EventLog

/// What the LMDB wrapper owes other processes opening the same environment: a server and an
/// operator's command (`verify`, `backup`, `as-of`) open one data directory together.
@Suite(.timeLimit(.minutes(3))) struct LMDBEnvironmentTests {
    /// LMDB marks an environment in use with an `fcntl` lock on `lock.mdb`. Closing any descriptor
    /// of that file drops the process's locks on it, and the next process to open the environment
    /// then resets the reader table under this one's open transactions.
    @Test func theLockThatMarksTheEnvironmentInUseIsHeldWhileItIsOpen() throws {
        let dir = try TemporaryDirectory()
        let environment = try LMDBEnvironment(path: dir.url.path, initialMapSize: 1 << 20, maxDatabases: 2)
        let lockFile = dir.url.appendingPathComponent("lock.mdb").path
        #expect(try Self.fcntlLocks(heldOn: lockFile) > 0)
        environment.close()
        #expect(try Self.fcntlLocks(heldOn: lockFile) == 0)
    }

    /// A backup copies through a read transaction of its own; when another process has grown the file
    /// past this one's map, that transaction is refused until this process adopts the new size.
    @Test func aCopyAfterAnotherHandleGrewTheFileAdoptsItsSize() throws {
        let dir = try TemporaryDirectory()
        let path = dir.url.appendingPathComponent("env").path
        let small = try LMDBEnvironment(path: path, initialMapSize: 1 << 20, maxDatabases: 2)
        defer { small.close() }
        let values = try small.openDatabase(named: "values")
        // Another handle on the same files, as another process has: it grows the file past 1 MiB.
        let large = try LMDBEnvironment(path: path, initialMapSize: 64 << 20, maxDatabases: 2)
        let largeValues = try large.openDatabase(named: "values")
        try large.write { txn in
            for key in 0..<2_000 { try txn.put(largeValues, key: Array("\(key)".utf8), value: [UInt8](repeating: 7, count: 1_000)) }
        }
        large.close()

        let copy = dir.url.appendingPathComponent("copy")
        try small.copy(to: copy.path)
        let size = try FileManager.default.attributesOfItem(atPath: copy.appendingPathComponent("data.mdb").path)[.size] as? Int
        #expect((size ?? 0) > 2_000 * 1_000, "every value copied")
        #expect(try small.read { txn in try txn.get(values, key: Array("1999".utf8))?.count } == 1_000)
    }

    /// POSIX locks this process holds on `path`, from `/proc/locks` (`… POSIX ADVISORY READ pid maj:min:inode …`).
    private static func fcntlLocks(heldOn path: String) throws -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return 0 }
        let me = "\(getpid())", inode = "\(info.st_ino)"
        return try String(contentsOfFile: "/proc/locks", encoding: .utf8).split(separator: "\n").filter { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.count > 5 && fields[1] == "POSIX" && fields[4] == me && fields[5].split(separator: ":").last.map(String.init) == inode
        }.count
    }
}
