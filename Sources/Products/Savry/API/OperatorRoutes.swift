import HTTPServing
import Hummingbird
import ProductHosting
import ReadModels

/// The engine's operator endpoints under `/admin`, behind `X-Admin-Token`, answering errors in
/// Savry's shape. Call after `addSavryRoutes`, so they get its middleware.
public func addSavryOperatorRoutes(to router: Router<SavryRequestContext>, adminToken: String, audit: AuditTrail, replays: ReplayCoordinator) {
    router.group("/admin")
        .add(middleware: HeaderTokenMiddleware<SavryRequestContext, SavryAPIError>(
            header: "X-Admin-Token", token: adminToken, refusal: SavryAPIError(.unauthorized, "This endpoint needs the operator's X-Admin-Token")
        ))
        .addRoutes(OperatorController<SavryRequestContext>(audit: audit, replays: replays).endpoints)
}
