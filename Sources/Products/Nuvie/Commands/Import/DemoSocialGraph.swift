import SeededRandom
import NuvieDomain
import NuvieMovieLens
import Foundation

/// The social layer MovieLens lacks, so every screen has something real to show: a friend graph
/// (each user asks two near neighbours in id order and one
/// stranger, so friends share friends; most accept, the rest stay pending), two popular
/// films each user has not rated on their watchlist, one of them started, another watched to the end,
/// and a recommendation of a film they rated 5 to one friend. All of it is decided by the same rules
/// as the live commands, drawn from a generator seeded with a fixed number, and recorded after the
/// last MovieLens event, so a rebuild or a fresh import produces the same events.
struct DemoSocialGraph {
    static let seed: UInt64 = 42
    static let requestsPerUser = 3
    static let neighbourhood = 8
    static let acceptedShare = 0.85
    static let popularPoolSize = 100

    let dataset: MovieLensDataset
    let start: Date

    func appends() throws -> [PlannedAppend] {
        var random = SplitMix64(seed: Self.seed)
        var clock = start
        var appends: [PlannedAppend] = []
        func record(_ stream: String, _ event: NuvieEvent, key: String) {
            clock += 60
            appends.append(PlannedAppend(stream: stream, event: event, key: "demo-social:\(key)", at: clock, expected: .any))
        }

        let users = Array(Set(dataset.ratings.map(\.userId))).sorted()
        var pairs: [String: FriendshipState] = [:]
        var friends: [Int64: [Int64]] = [:]
        for (index, user) in users.enumerated() where users.count > 1 {
            for request in 0..<Self.requestsPerUser {
                // Mostly near neighbours in id order, so friends share friends; one stranger each.
                let other = request < Self.requestsPerUser - 1
                    ? users[(index + Int.random(in: 1...Self.neighbourhood, using: &random)) % users.count]
                    : users[Int.random(in: 0..<users.count, using: &random)]
                guard other != user else { continue }
                let stream = NuvieStreams.friendship(user, other)
                var state = pairs[stream, default: FriendshipState()]
                guard let requested = try? FriendshipDecisions.request(from: user, to: other, state: state, userExists: true) else { continue }
                var events = requested
                if Double.random(in: 0..<1, using: &random) < Self.acceptedShare {
                    state = FriendshipState.fold(events)
                    events += try FriendshipDecisions.answer(.accepted, by: other, requesterId: user, state: state, userExists: true)
                    friends[user, default: []].append(other)
                    friends[other, default: []].append(user)
                }
                for (index, event) in events.enumerated() { record(stream, event, key: "\(stream):\(index)") }
                pairs[stream] = FriendshipState.fold(events)
            }
        }

        let rated = Dictionary(grouping: dataset.ratings, by: \.userId)
        let popular = Dictionary(grouping: dataset.ratings, by: \.movieId).sorted { ($1.value.count, $0.key) < ($0.value.count, $1.key) }
            .prefix(Self.popularPoolSize).map(\.key)
        for user in users {
            let seen = Set(rated[user, default: []].map(\.movieId))
            let picks = Array(popular.filter { !seen.contains($0) }.shuffled(using: &random).prefix(3))
            for movie in picks.prefix(2) {
                record(NuvieStreams.watchlist(userId: user, movieId: movie), .watchlistAdded(WatchlistAdded(userId: user, movieId: movie)), key: "watchlist:\(user):\(movie)")
            }
            for (index, movie) in picks.enumerated() where index != 1 {
                let watched = index == 0
                    ? WatchProgressed(userId: user, movieId: movie, eventType: .started, progressPercent: Int.random(in: 10...80, using: &random))
                    : WatchProgressed(userId: user, movieId: movie, eventType: .completed, progressPercent: 100)
                record(NuvieStreams.watch(userId: user, movieId: movie), .watchProgressed(watched), key: "watch:\(user):\(movie)")
            }
            if let friend = friends[user]?.first, let loved = rated[user]?.filter({ $0.rating == 5 }).randomElement(using: &random) {
                let recommended = MovieRecommended(fromUserId: user, movieId: loved.movieId, toUserIds: [friend])
                record(NuvieStreams.recommendations(fromUserId: user), .movieRecommended(recommended), key: "recommend:\(user)")
            }
        }
        return appends
    }
}
