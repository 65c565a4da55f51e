import GRDB

extension KeyStore {
    /// Checkpoints the WAL into the file and truncates it, so that the pages of keys just destroyed
    /// leave it (`secure_delete` zeroes them in the file). Readers that hold it off past the busy
    /// timeout (a `backup-keys` of a large store) neither undo the destruction nor fail the erasure,
    /// which must go on to record its event: it is tried again every `walRetryInterval` until it
    /// succeeds or the store is closed.
    func truncateWALAfterDestruction() {
        guard !truncateWAL() else { return }
        Task { [weak self] in
            while let interval = self?.walRetryInterval {
                try? await Task.sleep(for: interval)
                guard let self, !self.closed.withLockedValue({ $0 }), !self.truncateWAL() else { return }
            }
        }
    }

    private func truncateWAL() -> Bool {
        (try? pool.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }) != nil
    }
}
