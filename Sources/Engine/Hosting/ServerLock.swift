import EventLog
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One process at a time changes what a server opens: a server (`whileServing`) or an operator command
/// that must run with none (`whileStopped`). Each holds a lock on `serverPidFile`, which goes with its
/// process, and writes its pid there (and a command its name), so the others can tell who it is.
extension DataDirectory {
    public var serverPidFile: URL { root.appendingPathComponent("server.pid") }

    /// The pid of a live server over this directory, if one is running. A pid alone could name a
    /// process that serves another directory (a copy of this one) or none (a server killed, its pid
    /// reused); the lock goes with the process.
    public var runningServer: Int32? {
        guard let holder = lockHolder, holder.command == nil else { return nil }
        return holder.pid
    }

    /// Runs `serve` holding the lock, so that operator commands that must not run beside a server can
    /// tell, and a second server is refused before it opens anything.
    public func whileServing(_ serve: () async throws -> Void) async throws {
        try await holdingLock(command: nil) {
            removeAbandonedScratch()
            try await serve()
        }
    }

    /// Runs an offline `command` (a replay, an erasure, a restore, an import) holding the lock, so that
    /// no server starts over the directory meanwhile: one started then (systemd restarting it) would
    /// remove the read-model file a replay folds into, cache a key an erasure is destroying, or take
    /// writes a sealed copy misses.
    public func whileStopped<T>(_ command: String, _ work: () async throws -> T) async throws -> T {
        try await holdingLock(command: command, work)
    }

    /// The process holding the lock, a server or an offline command (with its name), if one is.
    var lockHolder: (pid: Int32, command: String?)? {
        let file = open(serverPidFile.path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        guard flock(file, LOCK_SH | LOCK_NB) != 0 else { return nil }
        return Self.holder(in: file) ?? (0, nil)
    }

    private func holdingLock<T>(command: String?, _ work: () async throws -> T) async throws -> T {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let file = try lockedPidFile()
        defer { close(file) }
        let line = Array("\(getpid())\(command.map { " \($0)" } ?? "")\n".utf8)
        guard ftruncate(file, 0) == 0, pwrite(file, line, line.count, 0) == line.count else { throw Self.unusable(serverPidFile, errno: errno) }
        defer { unlink(serverPidFile.path) }
        return try await work()
    }

    /// The pid file, open and locked by this process. The holder before removes the file as it ends:
    /// one opened before that and locked after is no longer the file at the path, and is opened again.
    private func lockedPidFile() throws -> Int32 {
        for _ in 0..<10 {
            let file = open(serverPidFile.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard file >= 0 else { throw Self.unusable(serverPidFile, errno: errno) }
            guard flock(file, LOCK_EX | LOCK_NB) == 0 else {
                let holder = Self.holder(in: file)
                close(file)
                if let running = holder?.command { throw DataDirectoryError.inUse(root.path, pid: holder?.pid, command: running) }
                throw DataDirectoryError.alreadyServed(root.path, pid: holder?.pid)
            }
            var opened = stat(), named = stat()
            if fstat(file, &opened) == 0, stat(serverPidFile.path, &named) == 0, opened.st_dev == named.st_dev, opened.st_ino == named.st_ino {
                return file
            }
            close(file)
        }
        throw DataDirectoryError.unusable(serverPidFile.path, "it was removed each time it was locked")
    }

    private static func unusable(_ file: URL, errno code: Int32) -> any Error {
        let cause = String(cString: strerror(code))
        guard StorageFullError.isNoSpace(errno: code) else { return DataDirectoryError.unusable(file.path, cause) }
        return StorageFullError(store: .init(rawValue: "data_directory", title: "the data directory"), path: file.deletingLastPathComponent().path, cause: cause)
    }

    /// The pid the file holds, and the command named after it, if one is.
    private static func holder(in file: Int32) -> (pid: Int32, command: String?)? {
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = pread(file, &bytes, bytes.count, 0)
        guard count > 0 else { return nil }
        let fields = String(decoding: bytes[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ", maxSplits: 1)
        guard let pid = fields.first.flatMap({ Int32($0) }) else { return nil }
        return (pid, fields.count > 1 ? String(fields[1]) : nil)
    }
}
