import HTTPServing
import Hummingbird
import NuvieProjections

/// `GET /users/{user_id}`, `GET /users/me`, `PATCH /users/me`: the contract's profile. Another
/// user's profile adds how the caller stands with them; the caller's own adds their private fields.
struct ProfileDTO: ResponseEncodable, Sendable {
    struct Stats: Encodable, Sendable {
        @Nullable var averageRatingGiven: Double?
        @Nullable var mostWatchedGenre: String?
        /// Minutes; null: the catalog has no running times, and we do not invent them.
        @Nullable var totalWatchTime: Int?
    }

    struct Private: Encodable, Sendable {
        @Nullable var email: String?
        @Nullable var termsVersion: String?
        @Nullable var termsAcceptedAt: String?
    }

    var userId: Int64
    var name: String
    @Nullable var avatarUrl: String?
    @Nullable var bio: String?
    var favoriteGenres: [String]
    /// `chosen` by the user, or `derived` from the films they rated 4 or more.
    var favoriteGenresSource: String
    var watchedCount: Int
    var friendsCount: Int
    var ratingsCount: Int
    var favoritesCount: Int
    var stats: Stats
    var memberSince: String
    var lastActive: String
    /// Another user's profile: `none`, `friends`, `pending_outgoing`, `pending_incoming` or `blocked`.
    @Nullable var friendshipStatus: String?
    @Nullable var mutualFriends: Int?
    /// The caller's own profile.
    @Nullable var account: Private?

    init(_ profile: UserProfile, relationship: Relationship?, mutualFriends: Int?) {
        userId = profile.userId
        name = profile.name
        avatarUrl = profile.avatarUrl
        bio = profile.bio
        favoriteGenres = profile.favoriteGenres
        favoriteGenresSource = profile.favoriteGenresChosen ? "chosen" : "derived"
        watchedCount = profile.watchedCount
        friendsCount = profile.friendsCount
        ratingsCount = profile.ratingsCount
        favoritesCount = profile.favoritesCount
        stats = Stats(
            averageRatingGiven: profile.averageRatingGiven.map { rounded($0) }, mostWatchedGenre: profile.mostWatchedGenre,
            totalWatchTime: nil
        )
        memberSince = NuvieJSON.timestamp(epochSeconds: profile.registeredAt)
        lastActive = NuvieJSON.timestamp(epochSeconds: profile.lastActiveAt)
        friendshipStatus = relationship?.rawValue
        self.mutualFriends = mutualFriends
        account = relationship == nil ? Private(
            email: profile.email, termsVersion: profile.termsVersion,
            termsAcceptedAt: profile.termsAcceptedAt.map { NuvieJSON.timestamp(epochSeconds: $0) }
        ) : nil
    }
}
