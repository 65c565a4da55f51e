import GRDB

extension KeyStore {
    /// Checkpoints the WAL into the file and truncates it, so that the pages of keys just destroyed
    /// leave it (`secure_delete` zeroes them in the file). Readers that hold it off past the busy
    /// timeout (a `backup-keys` of a large store) neither undo the destruction nor fail the erasure,
    /// which must go on to record its event: one retry loop tries again every `walRetryInterval`
    /// until it succeeds, and closing the store tries once more (an offline command ends before
    /// the loop's next turn). Only that last try waits for readers: a truncation waiting on the
    /// writer's queue held every key creation behind it (synchronous, on request threads) for as
    /// long as the busy timeout.
    func truncateWALAfterDestruction() {
        guard !truncateWAL(waitingForReaders: false) else { return }
        let starting = walTruncation.withLockedValue { pending in
            defer { pending = true }
            return !pending
        }
        guard starting else { return }
        Task { [weak self] in
            while let interval = self?.walRetryInterval {
                try? await Task.sleep(for: interval)
                guard let self, !self.closed.withLockedValue({ $0 }) else { return }
                if (try? await self.pool.writeWithoutTransaction({ try Self.truncate($0, waitingForReaders: false) })) != nil {
                    self.walTruncation.withLockedValue { $0 = false }
                    return
                }
            }
        }
    }

    /// The last try of a truncation still pending, as the store closes.
    func truncatePendingWAL() {
        if walTruncation.withLockedValue({ $0 }) { _ = truncateWAL(waitingForReaders: true) }
    }

    private func truncateWAL(waitingForReaders: Bool) -> Bool {
        (try? pool.writeWithoutTransaction { try Self.truncate($0, waitingForReaders: waitingForReaders) }) != nil
    }

    /// Not waiting for readers, the busy handler is off for the checkpoint (SQLITE_BUSY at once).
    private static func truncate(_ db: Database, waitingForReaders: Bool) throws {
        guard !waitingForReaders else {
            _ = try db.checkpoint(.truncate)
            return
        }
        try db.execute(sql: "PRAGMA busy_timeout = 0")
        defer { try? db.execute(sql: "PRAGMA busy_timeout = \(KeyStoreSchema.busyTimeoutMilliseconds)") }
        _ = try db.checkpoint(.truncate)
    }
}
