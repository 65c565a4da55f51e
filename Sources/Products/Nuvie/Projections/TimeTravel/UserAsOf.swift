import ReadModels
import EventSourcing
import NuvieDomain
import EventLog
import Foundation
import GRDB

/// One user's read models as of a log position, folded from only the events that can show in their
/// profile, their ratings and the first page of their friends' activity, instead of the whole log
/// before it: the user's own history, the catalog events of the films involved, and each friend's
/// profile and latest activity.
///
/// Each projection folds its own subsequence of the log, in log order, into its own tables, so the
/// rows those three views read are the rows a full fold to the same position holds (tested against
/// one for every user at several positions). Other rows (film averages, other users' profiles, the
/// feed's total count) are partial here and not to be read.
public enum UserAsOf {
    public static func readModels(
        of userId: Int64, at position: UInt64, in log: EventLog, personalData: any PersonalDataCipher, feedSize: Int = 20
    ) throws -> ReadDatabase {
        let decode: @Sendable (RecordedEvent) throws -> Recorded<NuvieEvent> = { try NuvieCatalog.decode($0, personalData: personalData) }
        let own = try TwoThreads.map(log.readUser(userId, through: position), decode)
        let ratedFilms = own.compactMap { if case .movieRated(let rated) = $0.event { rated.movieId } else { nil } }
        // Taste needs the genres of every film rated: read and decoded on the other core meanwhile.
        let ratedFilmEvents = Background { try filmEvents(ratedFilms, through: position, in: log, decode) }
        defer { _ = try? ratedFilmEvents.value() }
        let database = try ReadDatabase.inMemory(projections: NuvieReadModels.all.filter { shown.contains($0.name) })
        do {
            try database.fold(["social": own])
            func friends() throws -> [Int64] {
                try database.pool.read { db in
                    try Int64.fetchAll(db, sql: "SELECT friendId FROM friendship WHERE userId = ? ORDER BY friendId", arguments: [userId])
                }
            }
            var friendProfiles: [Recorded<NuvieEvent>] = []
            for friend in try friends() {
                friendProfiles += try log.readStream(NuvieStreams.user(friend)).prefix { $0.position <= position }.map(decode)
            }
            // A friend's erasure is in their history, not the user's, and ends the friendship.
            let erasures = friendProfiles.filter { if case .userErased = $0.event { true } else { false } }
            if !erasures.isEmpty { try database.fold(["social": erasures]) }
            var friendActivity: [Recorded<NuvieEvent>] = []
            for friend in try friends() {
                friendActivity += try latestActivity(of: friend, through: position, count: feedSize, in: log, decode)
            }
            let feedFilms = friendActivity.compactMap { ActivityProjection.row(for: $0.event)?.movieId }
            try database.fold([
                "user-ratings": own, "watch": own,
                "users": inLogOrder(own + friendProfiles),
                "activity": inLogOrder(friendActivity),
                "catalog": try filmEvents(feedFilms, through: position, in: log, decode),
            ])
            try database.fold(["taste": inLogOrder(own + ratedFilmEvents.value())])
            return database
        } catch {
            try? database.close()
            throw error
        }
    }

    /// The projections whose tables the user's profile, ratings and friends' feed read.
    private static let shown: Set = ["catalog", "user-ratings", "users", "watch", "social", "activity", "taste"]

    /// The friend's newest `count` events that make a feed row, newest last.
    private static func latestActivity(
        of friend: Int64, through position: UInt64, count: Int, in log: EventLog, _ decode: (RecordedEvent) throws -> Recorded<NuvieEvent>
    ) throws -> [Recorded<NuvieEvent>] {
        let types: Set = [MovieRated.typeName, WatchProgressed.typeName, WatchlistAdded.typeName]
        var latest: [Recorded<NuvieEvent>] = []
        try log.readUserBackward(friend, through: position) { record in
            guard types.contains(record.type) else { return true }
            let event = try decode(record)
            if ActivityProjection.row(for: event.event)?.userId == friend { latest.append(event) }
            return latest.count < count
        }
        return latest.reversed()
    }

    /// Every event of the films' streams (their `movie-added`s) up to `position`, in log order.
    private static func filmEvents(
        _ movieIds: [Int64], through position: UInt64, in log: EventLog, _ decode: @Sendable (RecordedEvent) throws -> Recorded<NuvieEvent>
    ) throws -> [Recorded<NuvieEvent>] {
        inLogOrder(try TwoThreads.map(Set(movieIds).flatMap { movieId in
            try log.readStream(NuvieStreams.movie(movieId)).prefix { $0.position <= position }
        }, decode))
    }

    /// Sorted by position, each event once (a friend's event can also be the user's).
    private static func inLogOrder(_ events: [Recorded<NuvieEvent>]) -> [Recorded<NuvieEvent>] {
        var seen = Set<UInt64>()
        return events.sorted { $0.position < $1.position }.filter { seen.insert($0.position).inserted }
    }
}

extension ReadDatabase {
    /// Folds each named projection's events, in one transaction.
    fileprivate func fold(_ eventsByProjection: [String: [Recorded<NuvieEvent>]]) throws {
        try pool.write { db in
            for projection in NuvieReadModels.all where projections.contains(where: { $0.name == projection.name }) {
                guard let events = eventsByProjection[projection.name], !events.isEmpty else { continue }
                try projection.apply(events[...], db)
            }
        }
    }
}
