import GRDB

extension KeyStore {
    /// Checkpoints the WAL into the file and truncates it, so that the pages of keys just destroyed
    /// leave it (`secure_delete` zeroes them in the file). Readers that hold it off past the busy
    /// timeout (a `backup-keys` of a large store) neither undo the destruction nor fail the erasure,
    /// which must go on to record its event: one retry loop tries again every `walRetryInterval`
    /// until it succeeds, and closing the store tries once more (an offline command ends before
    /// the loop's next turn).
    func truncateWALAfterDestruction() {
        guard !truncateWAL() else { return }
        let starting = walTruncation.withLockedValue { pending in
            defer { pending = true }
            return !pending
        }
        guard starting else { return }
        Task { [weak self] in
            while let interval = self?.walRetryInterval {
                try? await Task.sleep(for: interval)
                guard let self, !self.closed.withLockedValue({ $0 }) else { return }
                // On the store's writer queue, not this task's thread: it may wait the busy timeout.
                if (try? await self.pool.writeWithoutTransaction(Self.truncate)) != nil {
                    self.walTruncation.withLockedValue { $0 = false }
                    return
                }
            }
        }
    }

    /// The last try of a truncation still pending, as the store closes.
    func truncatePendingWAL() {
        if walTruncation.withLockedValue({ $0 }) { _ = truncateWAL() }
    }

    private func truncateWAL() -> Bool {
        (try? pool.writeWithoutTransaction(Self.truncate)) != nil
    }

    private static func truncate(_ db: Database) throws {
        _ = try db.checkpoint(.truncate)
    }
}
