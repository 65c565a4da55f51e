import Foundation
import Hummingbird
import ProductHosting
import SavryProjections

/// `/api/app/account`: the signed-in user's own account.
///
/// `DELETE /api/app/account` erases it: a `user-erased` event, then the user's data key destroyed, so
/// everything they wrote reads as absent from then on, in the log and in every copy of it. It answers
/// 204 once the read models show it: their recipes are gone from every read, their token is 401, and
/// their identity signs in again as a new, empty user.
///
/// `GET /api/app/account/export` is everything Savry holds about them (GDPR Art. 15 and 20): the
/// engine's streamed export, whose `account` is their recipes as the API shows them.
struct AccountController: Sendable {
    let accounts: UserAccounts<SavryProduct>
    let recipes: RecipeQueries

    var endpoints: RouteCollection<SavrySignedInContext> {
        RouteCollection(context: SavrySignedInContext.self)
            .delete(use: delete)
            .get("export", use: export)
    }

    func delete(_ request: Request, context: SavrySignedInContext) async throws -> Response {
        do {
            _ = try await accounts.erase(context.userId, initiator: .user)
        } catch UserErasureFailure.alreadyErased, UserErasureFailure.unknownUser {
            // Another request erased the account first (or the token's user never existed).
            throw SavryAPIError.unauthorized("Unauthorized: this token's user is not registered")
        }
        return Response(status: .noContent)
    }

    func export(_ request: Request, context: SavrySignedInContext) async throws -> Response {
        let stored = try recipes.all(of: context.userId)
        let account = AccountJSON(userId: String(context.userId), recipeCount: stored.count, recipes: stored.map(RecipeJSON.init))
        return accounts.export.response(for: context.userId, account: try SavryJSON.encoder().encode(account), timestamp: Timestamp.format)
    }
}

/// The export's `account`: `{"userId": "<id>", "recipeCount": n, "recipes": [Recipe, …]}`, the
/// recipes newest `updatedAt` first, each as `GET /api/app/recipes/{id}` shows it.
struct AccountJSON: Encodable {
    let userId: String
    let recipeCount: Int
    let recipes: [RecipeJSON]
}
