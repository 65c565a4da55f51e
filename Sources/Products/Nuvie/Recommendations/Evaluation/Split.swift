import SeededRandom
import NuvieDomain
import NuvieMovieLens

/// A train/test split of ratings, per user: 20 % of each user's ratings are held out.
///
/// - temporal: each user's ratings sorted by (timestamp, film id); the last round(0.2·n) are held out
///   (round half to even).
/// - random: each user's ratings sorted by film id, shuffled with a seeded SplitMix64, the first
///   round(0.2·n) held out.
///
/// A held-out film is relevant whatever its rating. Users with nothing held out are not evaluated.
public struct Split: Sendable {
    public enum Kind: String, Sendable, CaseIterable { case temporal, random }

    public var kind: Kind
    public var train: [RatingRecord]
    /// User → the films held out.
    public var test: [Int64: Set<Int64>]

    public static let heldOutShare = 0.2

    public init(_ ratings: [RatingRecord], kind: Kind, seed: UInt64 = 42) {
        var generator = SplitMix64(seed: seed)
        self.kind = kind
        var byUser: [Int64: [RatingRecord]] = [:]
        for rating in ratings { byUser[rating.userId, default: []].append(rating) }
        train = []
        test = [:]
        for userId in byUser.keys.sorted() {
            var own = byUser[userId] ?? []
            switch kind {
            case .temporal:
                own.sort { ($0.timestamp, $0.movieId) < ($1.timestamp, $1.movieId) }
            case .random:
                own.sort { $0.movieId < $1.movieId }
                own.shuffle(using: &generator)
            }
            let heldOut = Int((Double(own.count) * Self.heldOutShare).rounded(.toNearestOrEven))
            let cut = kind == .temporal ? own.count - heldOut : heldOut
            let (kept, held) = kind == .temporal ? (own[..<cut], own[cut...]) : (own[cut...], own[..<cut])
            train.append(contentsOf: kept)
            if !held.isEmpty { test[userId] = Set(held.map(\.movieId)) }
        }
    }
}
