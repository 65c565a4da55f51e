import EventSourcing
import Foundation
import GRDB

extension ProjectionRunner {
    /// A stopped projection folds nothing more until a replay, yet its tables still answer reads:
    /// the erasures among `events` are applied to it all the same (each deletes or blanks the user's
    /// rows, whatever came before it), so no erased user is served from it meanwhile. Its checkpoint
    /// stays where it stopped; an erasure it cannot apply either is rolled back for it and logged.
    func applyErasures(in events: [Recorded<Event>], toStopped checkpoints: [Checkpoint], _ db: Database) {
        let stopped = checkpoints.filter { $0.failedPosition != nil }
        guard !stopped.isEmpty else { return }
        let erasures = events.filter { Self.isErasure($0.event) }
        guard !erasures.isEmpty else { return }
        for checkpoint in stopped {
            guard let projection = projections.first(where: { $0.name == checkpoint.name }) else { continue }
            for erasure in erasures where erasure.position > UInt64(clamping: checkpoint.position) {
                do {
                    try db.inSavepoint {
                        try projection.apply(erasure, db)
                        return .commit
                    }
                } catch {
                    logger.error("a stopped projection could not apply an erasure; a replay will", metadata: [
                        "projection": "\(projection.name)", "position": "\(erasure.position)", "error": "\(error)",
                    ])
                }
            }
        }
    }

    /// Whether `event` is the engine's `user-erased`: by its wire name, as the host finds erasures.
    private static func isErasure(_ event: Event) -> Bool {
        (try? Catalog.encode(event, with: JSONEncoder()).type) == UserErased.typeName
    }
}
