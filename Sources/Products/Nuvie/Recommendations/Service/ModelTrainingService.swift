import ReadModels
import Dispatch
import NuvieProjections
import Logging
import ServiceLifecycle

/// Retrains the model whenever a new rating, finished film or erasure has reached the read models,
/// checking every `interval`, so who watched what changes everyone's item–item weights without a
/// restart. The first model is trained before the server starts (`trainIfInteractionsChanged` from
/// `buildNuvieApplication`).
public struct ModelTrainingService: Service {
    let recommender: Recommender
    let interval: Duration
    let logger: Logger

    public init(recommender: Recommender, interval: Duration, logger: Logger) {
        self.recommender = recommender
        self.interval = interval
        self.logger = logger
    }

    public func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: interval)
                try await BlockingWork.run(trainIfInteractionsChanged)
            }
        }
    }

    /// Trains when the read models hold a rating or finished film the current model has not seen, or
    /// an erasure since (or there is no model yet).
    public func trainIfInteractionsChanged() {
        do {
            let latest = try recommender.inputs.interactionsVersion()
            if recommender.trained.map({ $0.version != latest }) ?? true {
                try recommender.train()
            }
        } catch {
            logger.error("recommendation model training failed", metadata: ["error": "\(error)"])
        }
    }
}
