import Logging
import ServiceLifecycle

/// Retrains the model whenever new ratings have reached the read model, at most once per `interval`,
/// so a rating changes everyone's item–item weights without a restart.
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
                trainIfRatingsChanged()
                try await Task.sleep(for: interval)
            }
        }
    }

    /// Trains when the read model holds a rating the current model has not seen (or there is no model yet).
    public func trainIfRatingsChanged() {
        do {
            let latest = try recommender.inputs.latestRatingPosition()
            if recommender.trained.map({ $0.position != latest }) ?? true {
                try recommender.train()
            }
        } catch {
            logger.error("recommendation model training failed", metadata: ["error": "\(error)"])
        }
    }
}
