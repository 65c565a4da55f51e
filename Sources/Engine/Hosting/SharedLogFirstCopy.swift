import Dispatch
import Logging
import ReadModels

extension ProductStores {
    /// Copies the shared log into this node's log and, unless `foldingMeanwhile` is false (a past
    /// state served read-only builds its own read models), folds what is copied as it lands, on a
    /// thread of its own: a node joining a long log folds while it copies instead of after. Batches
    /// of 10,000 events: the 1 M-event join took 33 s in batches of 2,000, 27 s of 5,000 and 23–24 s
    /// of 10,000 for its copy and fold, peaking at 270 MB (BENCHMARKS.md). The runner the product
    /// starts next goes on from where this fold stopped. A fold that stops early (a full disk) is
    /// left to that runner. How far both have got is logged every 5 s.
    func copySharedLog(foldingMeanwhile: Bool, logger: Logger) async throws {
        guard foldingMeanwhile else { return try await log.catchUpWithSharedLog() }
        let copied = Latch()
        let runner = try runner(batchSize: 10_000, logger: logger)
        async let folded = BlockingWork.run(on: DispatchQueue(label: "first-copy-fold", qos: .utility)) {
            try runner.catchUp(whileFilling: { !copied.isSet })
        }
        let progress = Task { [log] in
            while true {
                try await Task.sleep(for: .seconds(5))
                logger.info("copying and folding the shared log", metadata: [
                    "copied": "\(log.headPosition)", "folded": "\(runner.appliedPosition)", "head": "\(log.sharedHeadPosition)",
                ])
            }
        }
        defer { progress.cancel() }
        do { try await log.catchUpWithSharedLog() } catch {
            copied.set()
            _ = try? await folded
            throw error
        }
        copied.set()
        do {
            let count = try await folded
            logger.info("folded the shared log while copying it", metadata: ["events": "\(count)", "position": "\(runner.appliedPosition)"])
        } catch {
            logger.warning("the fold beside the copy stopped; the projection runner goes on from there", metadata: ["error": "\(error)"])
        }
    }
}
