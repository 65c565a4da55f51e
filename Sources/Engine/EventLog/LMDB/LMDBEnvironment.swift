import CLMDB
import Foundation

/// The process's handle on one LMDB environment: its named databases, transactions and map growth.
///
/// Opened with `MDB_NOTLS` because Swift tasks hop threads: a transaction is tied to the call that
/// opened it, never to a thread, and no transaction outlives the synchronous closure it is given to.
final class LMDBEnvironment: @unchecked Sendable {
    struct Database: Sendable { let handle: MDB_dbi }

    private let env: OpaquePointer
    /// `lock.mdb`, opened to allocate it and kept open until the environment closes: closing any
    /// descriptor of a file drops every `fcntl` lock this process holds on it, LMDB's included, and
    /// the next process to open the environment would then take itself for the only one and reset
    /// the reader table under this one's readers.
    private let lockFile: Int32?
    private let resizeLock = ReadWriteLock()
    /// Written only under the exclusive lock, read under either side.
    private var isClosed = false
    let path: String
    /// Named in the `StorageFullError` a write throws when the filesystem is full.
    let store: StorageFullError.Store

    /// `durable: false` opens it with `MDB_NOSYNC`: a commit reaches the OS (it survives the process)
    /// but not the disk (a machine crash may lose or tear it). `readOnlyCopy` opens an environment no
    /// other process has open (a backup just written) for reading only, writing nothing into its
    /// directory, not even a lock file.
    init(
        path: String, initialMapSize: Int, maxDatabases: UInt32, durable: Bool = true, readOnlyCopy: Bool = false,
        store: StorageFullError.Store = .eventLog
    ) throws {
        if !readOnlyCopy { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        var handle: OpaquePointer?
        try LMDBError.check(mdb_env_create(&handle), "env_create")
        guard let handle else { throw LMDBError(code: EINVAL, operation: "env_create") }
        var lockFile: Int32?
        do {
            try LMDBError.check(mdb_env_set_maxdbs(handle, maxDatabases), "env_set_maxdbs")
            try LMDBError.check(mdb_env_set_maxreaders(handle, 256), "env_set_maxreaders")
            try LMDBError.check(mdb_env_set_mapsize(handle, initialMapSize), "env_set_mapsize")
            let access = readOnlyCopy ? MDB_RDONLY | MDB_NOLOCK : (durable ? 0 : MDB_NOSYNC)
            try LMDBError.check(mdb_env_open(handle, path, UInt32(MDB_NOTLS | access), 0o640), "env_open \(path)")
            try Self.checkWhole(handle, path: path)
            if !readOnlyCopy {
                var staleReaders: Int32 = 0
                try LMDBError.check(mdb_reader_check(handle, &staleReaders), "reader_check")
                lockFile = try Self.allocateLockFile(in: path)
            }
        } catch where error.isNoSpace(onFilesystemOf: path) {
            mdb_env_close(handle)
            if let lockFile { Glibc.close(lockFile) }
            throw StorageFullError(store: store, path: path, cause: error.description)
        } catch {
            mdb_env_close(handle)
            if let lockFile { Glibc.close(lockFile) }
            throw error
        }
        self.env = handle
        self.lockFile = lockFile
        self.path = path
        self.store = store
        MappedPages.changed()
    }

    /// A data file shorter than the pages its meta page counts (a copy cut short) maps fine and is a
    /// SIGBUS at the first read past its end, in whatever command reads there: refused at open.
    private static func checkWhole(_ env: OpaquePointer, path: String) throws(LMDBError) {
        var info = MDB_envinfo(), pages = MDB_stat()
        try LMDBError.check(mdb_env_info(env, &info), "env_info")
        try LMDBError.check(mdb_env_stat(env, &pages), "env_stat")
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path + "/data.mdb"))?[.size] as? Int else { return }
        let needed = (Int(info.me_last_pgno) + 1) * Int(pages.ms_psize)
        guard size >= needed else {
            throw LMDBError(code: MDB_CORRUPTED, operation: "env_open \(path): data.mdb is \(size) bytes, its pages need \(needed) (a copy cut short?)")
        }
    }

    /// LMDB maps `lock.mdb` (its reader table) after sizing it with `ftruncate`, which allocates
    /// nothing: on a full tmpfs the first use of a further reader slot would then be a SIGBUS instead
    /// of an error. Allocating the file's blocks now turns that into ENOSPC at open. Returns the
    /// descriptor, which must stay open while the environment is (`lockFile`).
    private static func allocateLockFile(in path: String) throws(LMDBError) -> Int32? {
        let lockFile = path + "/lock.mdb"
        let descriptor = Glibc.open(lockFile, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size > 0 else { return descriptor }
        guard Int(info.st_blocks) * 512 < Int(info.st_size) else { return descriptor }
        // Where a filesystem cannot allocate, glibc emulates it by writing a zero into the last byte
        // of each block that reads as zero: the padding of a reader slot, which nobody else writes.
        let code = posix_fallocate(descriptor, 0, info.st_size)
        guard code == 0 || code == EOPNOTSUPP || code == EINVAL else {
            Glibc.close(descriptor)
            throw LMDBError(code: code, operation: "fallocate \(lockFile)")
        }
        return descriptor
    }

    /// Closes the environment once; later transactions throw instead of touching freed memory.
    func close() {
        resizeLock.withExclusiveLock {
            guard !isClosed else { return }
            isClosed = true
            mdb_env_close(env)
            if let lockFile { Glibc.close(lockFile) }
            MappedPages.changed()
        }
    }

    var mapSize: Int {
        resizeLock.withSharedLock { isClosed ? 0 : currentMapSize }
    }

    private var currentMapSize: Int {
        var info = MDB_envinfo()
        mdb_env_info(env, &info)
        return info.me_mapsize
    }

    /// Drops this process's mapping of the map's pages (`madvise(MADV_DONTNEED)`). They stay in the
    /// kernel's page cache and the next read maps them back; the map is read-only (no
    /// `MDB_WRITEMAP`), so nothing is lost. What a fold read once stops counting as resident memory.
    func releaseMappedPages() {
        resizeLock.withSharedLock {
            guard !isClosed else { return }
            for region in MappedPages.regions(of: path + "/data.mdb") {
                _ = madvise(UnsafeMutableRawPointer(bitPattern: region.start), region.length, MADV_DONTNEED)
            }
        }
    }

    /// Doubles the map. Waits until no transaction of this process is open, as LMDB requires.
    func growMap() throws {
        try storageFull {
            try resizeLock.withExclusiveLock { () throws(LMDBError) in
                try LMDBError.check(mdb_env_set_mapsize(env, currentMapSize * 2), "env_set_mapsize")
                MappedPages.changed()
            }
        }
    }

    /// Runs `body`, turning LMDB's ENOSPC and EDQUOT (and its EIO on a full filesystem) into `StorageFullError`,
    /// and a write the filesystem refused otherwise into one that says so.
    private func storageFull<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as LMDBError where error.isNoSpace(onFilesystemOf: path) {
            throw StorageFullError(store: store, path: path, cause: error.description)
        } catch let error as LMDBError where error.isRefusedByFilesystem {
            throw StorageFullError(store: store, path: path, cause: error.description, reason: .refused)
        }
    }

    func openDatabase(named name: String) throws -> Database {
        try write { txn in
            var dbi: MDB_dbi = 0
            try LMDBError.check(mdb_dbi_open(txn.pointer, name, UInt32(MDB_CREATE), &dbi), "dbi_open \(name)")
            return Database(handle: dbi)
        }
    }

    /// Deletes the named databases there are (indexes an older version of the log kept), in one
    /// write transaction. Without any, the transaction changes nothing and its commit writes nothing.
    func dropDatabases(named names: [String]) throws {
        try write { txn in
            for name in names {
                var dbi: MDB_dbi = 0
                let code = mdb_dbi_open(txn.pointer, name, 0, &dbi)
                if code == MDB_NOTFOUND { continue }
                try LMDBError.check(code, "dbi_open \(name)")
                try LMDBError.check(mdb_drop(txn.pointer, dbi, 1), "drop \(name)")
            }
        }
    }

    /// Runs `body` in a read-only transaction. The transaction ends when `body` returns.
    func read<T>(_ body: (Transaction) throws -> T) throws -> T {
        try adoptingResizedMap {
            try resizeLock.withSharedLock {
                let txn = try begin(flags: UInt32(MDB_RDONLY))
                defer { mdb_txn_abort(txn.pointer) }
                return try body(txn)
            }
        }
    }

    /// Runs `body` again after adopting the map size another process grew the file to
    /// (`MDB_MAP_RESIZED`): LMDB remaps the file then, so no transaction of this process may be open,
    /// which the exclusive lock ensures.
    private func adoptingResizedMap<T>(_ body: () throws -> T) throws -> T {
        while true {
            do {
                return try body()
            } catch let error as LMDBError where error.isMapResized {
                try resizeLock.withExclusiveLock { () throws in
                    guard !isClosed else { throw EventLogError.closed }
                    try LMDBError.check(mdb_env_set_mapsize(env, 0), "env_set_mapsize")
                    MappedPages.changed()
                }
            }
        }
    }

    /// Runs `body` in the write transaction and commits it, durably unless opened with `durable: false`.
    /// A full map is grown and `body` run again from the start, so `body` must only write through `txn`.
    /// A full filesystem throws `StorageFullError`; the transaction is then aborted whole.
    func write<T>(_ body: (Transaction) throws -> T) throws -> T {
        while true {
            do {
                return try storageFull { try adoptingResizedMap { try resizeLock.withSharedLock {
                    let txn = try begin(flags: 0)
                    let result: T
                    do {
                        result = try body(txn)
                    } catch {
                        mdb_txn_abort(txn.pointer)
                        throw error
                    }
                    // A commit frees the transaction whether or not it succeeds.
                    try LMDBError.check(mdb_txn_commit(txn.pointer), "txn_commit")
                    return result
                } } }
            } catch let error as LMDBError where error.isMapFull {
                try growMap()
            }
        }
    }

    private func begin(flags: UInt32) throws -> Transaction {
        guard !isClosed else { throw EventLogError.closed }
        var txn: OpaquePointer?
        try LMDBError.check(mdb_txn_begin(env, nil, flags, &txn), "txn_begin")
        guard let txn else { throw LMDBError(code: EINVAL, operation: "txn_begin") }
        return Transaction(pointer: txn)
    }

    /// Writes a consistent, compacted copy of the environment into an empty directory.
    func copy(to directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try adoptingResizedMap {
            try resizeLock.withSharedLock {
                guard !isClosed else { throw EventLogError.closed }
                let code = mdb_env_copy2(env, directory, UInt32(MDB_CP_COMPACT))
                // The copy's file is made before its transaction begins, which a resized map refuses.
                if code == MDB_MAP_RESIZED { try? FileManager.default.removeItem(atPath: directory + "/data.mdb") }
                try LMDBError.check(code, "env_copy2 \(directory)")
            }
        }
    }
}
