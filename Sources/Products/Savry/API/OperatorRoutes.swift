import HTTPServing
import Hummingbird
import ProductHosting
import ReadModels

/// The engine's operator endpoints under `/admin`, behind `X-Admin-Token`, answering errors in
/// Savry's shape. `POST /admin/users/{id}/erase` erases an account as an operator (a support
/// request) and answers once the read models show it. Call after `addSavryRoutes`, so they get its
/// middleware.
public func addSavryOperatorRoutes(
    to router: Router<SavryRequestContext>, adminToken: String, audit: AuditTrail, replays: ReplayCoordinator, accounts: SavryAccounts
) {
    router.group("/admin")
        .add(middleware: HeaderTokenMiddleware<SavryRequestContext, SavryAPIError>(
            header: "X-Admin-Token", token: adminToken, refusal: SavryAPIError(.unauthorized, "This endpoint needs the operator's X-Admin-Token")
        ))
        .addRoutes(OperatorController<SavryRequestContext>(audit: audit, replays: replays) { userId in
            try await accounts.erase(userId, initiator: .operator)
        }.endpoints)
}
