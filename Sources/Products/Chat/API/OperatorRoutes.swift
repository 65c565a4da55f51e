import HTTPServing
import Hummingbird
import ProductHosting
import ReadModels

/// The engine's operator endpoints under `/admin`, behind `X-Admin-Token`, answering errors in the
/// chat product's shape. `POST /admin/users/{id}/erase` erases an account (a support request) and
/// answers once the read models show it. Call after `addChatRoutes`, so they get its middleware.
public func addChatOperatorRoutes(
    to router: Router<ChatRequestContext>, adminToken: String, audit: AuditTrail, replays: ReplayCoordinator, accounts: ChatAccounts
) {
    router.group("/admin")
        .add(middleware: HeaderTokenMiddleware<ChatRequestContext, ChatAPIError>(
            header: "X-Admin-Token", token: adminToken,
            refusal: ChatAPIError(.unauthorized, "not_authenticated", "This endpoint needs the operator's X-Admin-Token", detail: "X-Admin-Token")
        ))
        .addRoutes(OperatorController<ChatRequestContext>(audit: audit, replays: replays) { userId in
            try await accounts.erase(userId, initiator: .operator)
        }.endpoints)
}
