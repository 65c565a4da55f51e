import ReadModels
import EventSourcing
import NuvieDomain
import Hummingbird
import Foundation
import NIOCore
import NuvieProjections
import NuvieRecommendations
import NIOConcurrencyHelpers
import ProductHosting

/// `GET /feed/activities?type=&limit=&offset=`: what the caller's friends did, newest first; a
/// page's bytes are remembered until a fold touches the caller, one of their friends or a film on it.
/// `GET /feed/recommendations?limit=&offset=`: the caller's recommendations, each with why.
struct FeedController: Sendable {
    let activity: ActivityQueries
    let movies: MovieQueries
    let recommendations: RecommendationDependencies
    /// Encoded activity pages (about 4 KB a page).
    let activityPages: RememberedReads<String, ByteBuffer>
    let responses = EncodedFeeds()

    /// The feed keeps the AI service's best `RecommendQuery.maximumLimit` films and pages within them.
    static let feedSize = RecommendQuery.maximumLimit

    var endpoints: RouteCollection<NuvieSignedInContext> {
        RouteCollection(context: NuvieSignedInContext.self)
            .get("activities", use: activities)
            .get("recommendations", use: recommendationFeed)
    }

    /// From `recommendation_feed` while the entry lives (its TTL) and the caller's own signals are
    /// unchanged; else asks the AI service and stores the answer. The encoded page is kept too, until
    /// movie-stats folds its next batch (any new event: the averages shown may have moved), as JSON
    /// encoding is most of a cached feed's cost.
    func recommendationFeed(_ request: Request, context: NuvieSignedInContext) async throws -> Response {
        let userId = context.userId
        let page = try Pagination(request)
        let inputs = recommendations.inputs
        let freshness = try inputs.freshness(userId: userId)
        let stamp = freshness.stamp
        let now = Date()
        let pageKey = "\(stamp)|\(freshness.popularityPosition)|\(page.limit)|\(page.offset)"
        if let body = responses.get(userId, key: pageKey, now: now) { return JSONWriter.response(body) }

        let list: RecommendationList
        let purges = recommendations.cache.purges
        if let cached = try recommendations.cache.fresh(userId: userId, stamp: stamp, now: now) {
            list = cached
        } else {
            // An external AI service learns what the user has seen from the request itself.
            let query = RecommendQuery(
                requestId: UUID().uuidString, userId: userId, limit: Self.feedSize, excludeMovieIds: try inputs.seenMovieIds(userId: userId)
            )
            list = try await recommendations.engine.recommend(query)
            try recommendations.cache.store(list, stamp: stamp, madeAfter: purges)
        }
        let shown = Array(list.items.dropFirst(page.offset).prefix(page.limit))
        let ids = shown.map(\.movieId)
        let summaries = try movies.summaries(ids: ids)
        let friendRatings = try inputs.friendRatings(userId: userId, movieIds: ids)
        let feed = RecommendationFeedDTO(
            recommendations: shown.compactMap { item in
                summaries[item.movieId].map { FeedRecommendationDTO(item, movie: $0, friendRatings: friendRatings[item.movieId] ?? []) }
            },
            lastUpdated: NuvieJSON.timestamp(list.generatedAt), totalCount: list.items.count,
            limit: page.limit, offset: page.offset, hasMore: page.offset + shown.count < list.items.count
        )
        let body = ByteBuffer(data: try NuvieJSON.encoder().encode(feed))
        responses.put(userId, key: pageKey, body, expiresAt: list.generatedAt.addingTimeInterval(TimeInterval(list.ttlSeconds)))
        return JSONWriter.response(body)
    }

    func activities(_ request: Request, context: NuvieSignedInContext) async throws -> Response {
        let userId = context.userId
        let page = try Pagination(request)
        var kind: ActivityItem.Kind?
        if let raw = request.uri.queryParameters["type"], !raw.isEmpty {
            guard let parsed = ActivityItem.Kind(rawValue: String(raw)) else {
                let kinds = ActivityItem.Kind.allCases.map(\.rawValue).joined(separator: ", ")
                throw NuvieAPIError.validation("type must be one of \(kinds)", field: "type")
            }
            kind = parsed
        }
        let parameters = "\(userId)|\(kind?.rawValue ?? "")|\(page.limit)|\(page.offset)"
        let body = try activityPages.value(parameters, readingScopes: {
            let found = try activity.friendsActivity(of: userId, kind: kind, limit: page.limit, offset: page.offset)
            var json = JSONWriter()
            ListResponse(key: "activities", items: found.items.map(ActivityDTO.init), totalCount: found.totalCount, page: page).write(to: &json)
            // A friend's new activity, a friendship begun or ended, a name or a title changed.
            let scopes: [ReadScope] = [.user(userId)] + (try activity.friendIds(of: userId)).map(ReadScope.user) + found.items.map { .film($0.movieId) }
            return (ByteBuffer(bytes: json.bytes), ReadScopeSet(scopes))
        })
        return JSONWriter.response(body)
    }
}

/// Each user's last encoded feed page, with what it was made from.
final class EncodedFeeds: Sendable {
    private let memo = NIOLockedValueBox(Memo<Int64, ByteBuffer>())

    func get(_ userId: Int64, key: String, now: Date) -> ByteBuffer? {
        memo.withLockedValue { $0.get(userId, key: key, now: now.timeIntervalSince1970) }
    }

    func put(_ userId: Int64, key: String, _ body: ByteBuffer, expiresAt: Date) {
        memo.withLockedValue { $0.put(userId, key: key, body, expiresAt: expiresAt.timeIntervalSince1970) }
    }
}
