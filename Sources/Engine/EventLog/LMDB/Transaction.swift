import CLMDB

/// One open LMDB transaction. Valid only inside the closure that received it.
struct Transaction {
    let pointer: OpaquePointer

    func get(_ db: LMDBEnvironment.Database, key: [UInt8]) throws -> UnsafeRawBufferPointer? {
        try key.withUnsafeBytes { keyBytes in
            var k = MDB_val(mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
            var v = MDB_val()
            let code = mdb_get(pointer, db.handle, &k, &v)
            if code == MDB_NOTFOUND { return nil }
            try LMDBError.check(code, "get")
            return UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size)
        }
    }

    func put(_ db: LMDBEnvironment.Database, key: [UInt8], value: [UInt8], flags: Int32 = 0) throws {
        try key.withUnsafeBytes { keyBytes in
            try value.withUnsafeBytes { valueBytes in
                var k = MDB_val(mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
                var v = MDB_val(mv_size: valueBytes.count, mv_data: UnsafeMutableRawPointer(mutating: valueBytes.baseAddress))
                try LMDBError.check(mdb_put(pointer, db.handle, &k, &v, UInt32(flags)), "put")
            }
        }
    }

    /// Visits entries in key order starting at the first key ≥ `start` (`backward`: in descending
    /// order starting at the last key ≤ `start`), until `body` returns false.
    func scan(
        _ db: LMDBEnvironment.Database, from start: [UInt8], backward: Bool = false,
        _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) throws -> Bool
    ) throws {
        var cursor: OpaquePointer?
        try LMDBError.check(mdb_cursor_open(pointer, db.handle, &cursor), "cursor_open")
        defer { mdb_cursor_close(cursor) }
        try start.withUnsafeBytes { startBytes in
            var k = MDB_val(mv_size: startBytes.count, mv_data: UnsafeMutableRawPointer(mutating: startBytes.baseAddress))
            var v = MDB_val()
            var code: Int32
            if start.isEmpty {
                // LMDB refuses an empty key. Every key is ≥ the empty one, and none is ≤ it.
                guard !backward else { return }
                code = mdb_cursor_get(cursor, &k, &v, MDB_FIRST)
            } else {
                code = mdb_cursor_get(cursor, &k, &v, MDB_SET_RANGE)
                if backward, code == MDB_NOTFOUND {
                    code = mdb_cursor_get(cursor, &k, &v, MDB_LAST)
                } else if backward, code == MDB_SUCCESS, !UnsafeRawBufferPointer(start: k.mv_data, count: k.mv_size).elementsEqual(start) {
                    code = mdb_cursor_get(cursor, &k, &v, MDB_PREV)
                }
            }
            while code == MDB_SUCCESS {
                let key = UnsafeRawBufferPointer(start: k.mv_data, count: k.mv_size)
                let value = UnsafeRawBufferPointer(start: v.mv_data, count: v.mv_size)
                guard try body(key, value) else { return }
                code = mdb_cursor_get(cursor, &k, &v, backward ? MDB_PREV : MDB_NEXT)
            }
            if code != MDB_NOTFOUND { try LMDBError.check(code, "cursor_get") }
        }
    }

    /// The named database, if the environment has it: for a read-only transaction, which cannot create one.
    func existingDatabase(named name: String) throws -> LMDBEnvironment.Database? {
        var dbi: MDB_dbi = 0
        let code = mdb_dbi_open(pointer, name, 0, &dbi)
        if code == MDB_NOTFOUND { return nil }
        try LMDBError.check(code, "dbi_open \(name)")
        return LMDBEnvironment.Database(handle: dbi)
    }

    /// The last key of `db`, if it has any entry.
    func lastKey(_ db: LMDBEnvironment.Database) throws -> [UInt8]? {
        var cursor: OpaquePointer?
        try LMDBError.check(mdb_cursor_open(pointer, db.handle, &cursor), "cursor_open")
        defer { mdb_cursor_close(cursor) }
        var k = MDB_val()
        var v = MDB_val()
        let code = mdb_cursor_get(cursor, &k, &v, MDB_LAST)
        if code == MDB_NOTFOUND { return nil }
        try LMDBError.check(code, "cursor_get")
        return Array(UnsafeRawBufferPointer(start: k.mv_data, count: k.mv_size))
    }

    func entryCount(_ db: LMDBEnvironment.Database) throws -> Int {
        var stat = MDB_stat()
        try LMDBError.check(mdb_stat(pointer, db.handle, &stat), "stat")
        return stat.ms_entries
    }
}
