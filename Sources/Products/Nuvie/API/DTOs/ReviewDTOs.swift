import HTTPServing
import NuvieDomain
import Foundation
import Hummingbird
import NuvieProjections

struct ReviewDTO: Encodable, Sendable {
    var reviewId: Int64
    var userId: Int64
    var userName: String
    @Nullable var userAvatar: String?
    var movieId: Int64
    var rating: Int
    @Nullable var comment: String?
    var timestamp: String
    var likes: Int
    var userLiked: Bool

    init(_ review: ReviewItem) {
        reviewId = review.reviewId
        userId = review.userId
        userName = review.userName
        userAvatar = review.userAvatar
        movieId = review.movieId
        rating = MovieRated.stars(review.rating)
        comment = review.comment
        timestamp = NuvieJSON.timestamp(epochSeconds: review.updatedAt)
        likes = review.likes
        userLiked = review.viewerLiked
    }
}

extension ReviewDTO: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("review_id", reviewId)
            json.field("user_id", userId)
            json.field("user_name", userName)
            json.field("user_avatar", userAvatar)
            json.field("movie_id", movieId)
            json.field("rating", rating)
            json.field("comment", comment)
            json.field("timestamp", timestamp)
            json.field("likes", likes)
            json.field("user_liked", userLiked)
        }
    }
}

/// `POST /movies/{movie_id}/rate`.
struct RateResponse: ResponseGenerator, Encodable, Sendable {
    struct Rating: Encodable, Sendable {
        var userId: Int64
        var movieId: Int64
        var rating: Int
        @Nullable var comment: String?
        var timestamp: String
    }
    var success = true
    var rating: Rating
}

/// Written by hand: the write every client sends most, where `JSONEncoder` was a tenth of the event
/// loops' time (BENCHMARKS.md).
extension RateResponse: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("success", success)
            json.field("rating", rating)
        }
    }
}

extension RateResponse.Rating: JSONWritable {
    func write(to json: inout JSONWriter) {
        json.object { json in
            json.field("user_id", userId)
            json.field("movie_id", movieId)
            json.field("rating", rating)
            json.field("comment", comment)
            json.field("timestamp", timestamp)
        }
    }
}

/// `POST` / `DELETE /reviews/{review_id}/like`.
struct LikeResponse: ResponseEncodable, Sendable {
    var reviewId: Int64
    var likes: Int
    var userLiked: Bool
}
