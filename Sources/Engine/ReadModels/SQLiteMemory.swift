import GRDBSQLite

/// What SQLite holds in the heap for the whole process: every connection's page cache, schema and
/// statements. Each connection's page cache is bounded (`cache_size`, 2 MiB by default), so this
/// grows until the caches it has are full, then holds.
public enum SQLiteMemory {
    public static var bytesInUse: Int64 { sqlite3_memory_used() }
}
