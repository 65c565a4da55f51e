import HTTPServing
import Hummingbird
import ProductHosting
import ReadModels

/// The engine's operator endpoints under `/admin`, behind `X-Admin-Token`. News has no accounts, so
/// its erase answers 404 for every id.
public func addNewsOperatorRoutes(to router: Router<NewsRequestContext>, adminToken: String, audit: AuditTrail, replays: ReplayCoordinator) {
    router.group("/admin")
        .add(middleware: HeaderTokenMiddleware<NewsRequestContext, NewsAPIError>(
            header: "X-Admin-Token", token: adminToken, refusal: NewsAPIError(.forbidden, "Invalid API key", details: "This endpoint needs the operator's X-Admin-Token")
        ))
        .addRoutes(OperatorController<NewsRequestContext>(audit: audit, replays: replays) { userId in
            throw OperatorRequestError.notFound("news has no accounts: there is no user \(userId) to erase")
        }.endpoints)
}
