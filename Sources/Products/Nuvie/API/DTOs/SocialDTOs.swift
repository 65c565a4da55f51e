import HTTPServing
import NuvieDomain
import Hummingbird
import NuvieProjections

/// `GET /friends`.
struct FriendsResponse: ResponseEncodable, Sendable {
    var friends: [FriendDTO]
    var suggestions: [SuggestionDTO]
}

struct FriendDTO: ResponseEncodable, Sendable {
    var userId: Int64
    var name: String
    @Nullable var avatarUrl: String?
    var favoriteGenres: [String]
    var mutualFriends: Int
    /// `accepted`, `pending` or `blocked`.
    var status: String
    /// For pending requests: `incoming` (they asked) or `outgoing` (you asked); otherwise null.
    @Nullable var requestDirection: String?
    var watchedCount: Int
    var lastActive: String

    init(_ friend: FriendItem) {
        userId = friend.userId
        name = friend.name
        avatarUrl = friend.avatarUrl
        favoriteGenres = friend.favoriteGenres
        mutualFriends = friend.mutualFriends
        status = friend.status.rawValue
        requestDirection = friend.direction?.rawValue
        watchedCount = friend.watchedCount
        lastActive = NuvieJSON.timestamp(epochSeconds: friend.lastActiveAt)
    }
}

struct SuggestionDTO: Encodable, Sendable {
    var userId: Int64
    var name: String
    @Nullable var avatarUrl: String?
    var mutualFriends: Int
    var sharedGenres: [String]
    var matchScore: Int

    init(_ suggestion: FriendSuggestion) {
        userId = suggestion.userId
        name = suggestion.name
        avatarUrl = suggestion.avatarUrl
        mutualFriends = suggestion.mutualFriends
        sharedGenres = suggestion.sharedGenres
        matchScore = suggestion.matchScore
    }
}

/// A pending friend request, in `GET /friends/requests` and as the answer to sending one.
struct FriendRequestDTO: ResponseEncodable, Sendable {
    var requestId: Int64
    var userId: Int64
    var name: String
    @Nullable var avatarUrl: String?
    var mutualFriends: Int
    var direction: String
    var createdAt: String

    init(_ request: FriendRequestItem) {
        requestId = request.requestId
        userId = request.userId
        name = request.name
        avatarUrl = request.avatarUrl
        mutualFriends = request.mutualFriends
        direction = request.direction.rawValue
        createdAt = NuvieJSON.timestamp(epochSeconds: request.requestedAt)
    }
}

/// The answer to a write with nothing else to show: `{"success": true, "timestamp": …}`.
struct SuccessResponse: ResponseEncodable, Sendable {
    var success = true
    var timestamp: String
}

/// `GET /feed/activities` items.
struct ActivityDTO: Encodable, Sendable {
    var activityId: Int64
    var userId: Int64
    var userName: String
    @Nullable var userAvatar: String?
    var movieId: Int64
    var movieTitle: String
    @Nullable var moviePoster: String?
    var type: String
    @Nullable var rating: Int?
    @Nullable var comment: String?
    var timestamp: String

    init(_ activity: ActivityItem) {
        activityId = activity.activityId
        userId = activity.userId
        userName = activity.userName
        userAvatar = activity.userAvatar
        movieId = activity.movieId
        movieTitle = activity.movieTitle
        moviePoster = nil
        type = activity.kind.rawValue
        rating = activity.rating.map(MovieRated.stars)
        comment = activity.comment
        timestamp = NuvieJSON.timestamp(epochSeconds: activity.occurredAt)
    }
}

extension ActivityDTO: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("activity_id", activityId)
            json.field("user_id", userId)
            json.field("user_name", userName)
            json.field("user_avatar", userAvatar)
            json.field("movie_id", movieId)
            json.field("movie_title", movieTitle)
            json.field("movie_poster", moviePoster)
            json.field("type", type)
            json.field("rating", rating)
            json.field("comment", comment)
            json.field("timestamp", timestamp)
        }
    }
}

/// `POST /movies/{movie_id}/recommend`.
struct RecommendResponse: ResponseEncodable, Sendable {
    var success = true
    var movieId: Int64
    var recommendedTo: [Int64]
    var timestamp: String
}
