import Hummingbird
import Projections

/// `GET /feed/activities?type=&limit=&offset=`: what the caller's friends did, newest first.
struct FeedController: Sendable {
    let activity: ActivityQueries

    var endpoints: RouteCollection<AppRequestContext> {
        RouteCollection(context: AppRequestContext.self)
            .get("activities", use: activities)
    }

    func activities(_ request: Request, context: AppRequestContext) async throws -> ListResponse<ActivityDTO> {
        let userId = try context.requireUser()
        let page = try Pagination(request)
        var kind: ActivityItem.Kind?
        if let raw = request.uri.queryParameters["type"], !raw.isEmpty {
            guard let parsed = ActivityItem.Kind(rawValue: String(raw)) else {
                let kinds = ActivityItem.Kind.allCases.map(\.rawValue).joined(separator: ", ")
                throw APIError.validation("type must be one of \(kinds)", field: "type")
            }
            kind = parsed
        }
        let found = try activity.friendsActivity(of: userId, kind: kind, limit: page.limit, offset: page.offset)
        return ListResponse(key: "activities", items: found.items.map(ActivityDTO.init), totalCount: found.totalCount, page: page)
    }
}
