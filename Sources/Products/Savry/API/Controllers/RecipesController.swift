import ReadModels
import HTTPTypes
import HTTPServing
import Hummingbird
import ProductHosting
import SavryCommands
import SavryDomain
import SavryProjections

/// `/api/app/recipes`: a signed-in user's own recipes. Another user's recipe is 403 on every
/// method; a missing or deleted one 404.
struct RecipesController: Sendable {
    let commands: SavryCommandService
    let recipes: RecipeQueries
    let readYourWrites: ReadYourWrites

    static let defaultLimit = 20
    static let limits = 1...50

    var endpoints: RouteCollection<SavrySignedInContext> {
        RouteCollection(context: SavrySignedInContext.self)
            .get(use: list)
            .post(use: create)
            .get(":id", use: get)
            .patch(":id", use: update)
            .delete(":id", use: delete)
    }

    /// Newest `updatedAt` first; `cursor` lists those changed before it. `X-List-Head` carries the
    /// newest `updatedAt` of all the user's recipes: a client walking the pages that sees it change
    /// knows a recipe moved to the top, and starts again from there.
    func list(_ request: Request, context: SavrySignedInContext) async throws -> EditedResponse<RecipeListResponse> {
        guard let limit = request.queryInteger("limit", default: Self.defaultLimit, in: Self.limits) else {
            throw SavryAPIError.badRequest("limit must be a whole number from 1 to 50")
        }
        let cursor = try request.uri.queryParameters["cursor"].map { raw in
            guard let cursor = Timestamp.millisecondsCeiling(String(raw)) else {
                throw SavryAPIError.badRequest("cursor must be an ISO 8601 instant such as 2025-12-31T00:00:00.000Z")
            }
            return cursor
        }
        let page = try recipes.page(of: context.userId, before: cursor, limit: limit)
        var headers = HTTPFields()
        if let head = page.head { headers[Self.listHead] = Timestamp.format(milliseconds: head) }
        return EditedResponse(headers: headers, response: RecipeListResponse(
            recipes: page.recipes.map(RecipeJSON.init), nextCursor: page.nextCursor.map { Timestamp.format(milliseconds: $0) }
        ))
    }

    func create(_ request: Request, context: SavrySignedInContext) async throws -> EditedResponse<RecipeResponse> {
        let fields = try RecipeRequest.create(try await RequestBody.decode(request, context: context, fields: RecipeRequest.fields))
        let (recipeId, result) = try await commands.createRecipe(fields, by: context.userId, eventId: try request.eventId(of: SavryCatalog.self, userId: context.userId, action: "create-recipe"))
        try await readYourWrites.wait(for: result.position)
        return EditedResponse(status: .created, response: RecipeResponse(recipeId: recipeId, recipe: RecipeJSON(recipe: try stored(recipeId, for: context.userId))))
    }

    func get(_ request: Request, context: SavrySignedInContext) async throws -> RecipeResponse {
        RecipeResponse(recipeId: nil, recipe: RecipeJSON(recipe: try stored(try Self.recipeId(context), for: context.userId)))
    }

    /// Records only the fields that change; a body changing nothing (`{}` included) records nothing.
    func update(_ request: Request, context: SavrySignedInContext) async throws -> RecipeResponse {
        let recipeId = try Self.recipeId(context)
        let changes = try RecipeRequest.changes(try await RequestBody.decode(request, context: context, fields: RecipeRequest.fields))
        let result = try await commands.updateRecipe(
            recipeId, changes: changes, by: context.userId, eventId: try request.eventId(of: SavryCatalog.self, userId: context.userId, action: "update-recipe:\(recipeId)")
        )
        try await readYourWrites.wait(for: result.position)
        return RecipeResponse(recipeId: nil, recipe: RecipeJSON(recipe: try stored(recipeId, for: context.userId)))
    }

    func delete(_ request: Request, context: SavrySignedInContext) async throws -> SuccessResponse {
        let recipeId = try Self.recipeId(context)
        let result = try await commands.deleteRecipe(
            recipeId, by: context.userId, eventId: try request.eventId(of: SavryCatalog.self, userId: context.userId, action: "delete-recipe:\(recipeId)")
        )
        try await readYourWrites.wait(for: result.position)
        return SuccessResponse()
    }

    /// The user's own recipe as the read models show it: 404 when there is none, 403 when it is another's.
    private func stored(_ recipeId: String, for userId: Int64) throws -> StoredRecipe {
        guard RecipeId.isWellFormed(recipeId), let recipe = try recipes.recipe(id: recipeId) else { throw SavryAPIError.recipeNotFound(recipeId) }
        guard recipe.userId == userId else { throw SavryAPIError.forbidden }
        return recipe
    }

    private static func recipeId(_ context: SavrySignedInContext) throws -> String {
        guard let id = context.parameters.get("id") else { throw SavryAPIError.recipeNotFound("") }
        return id
    }

    static let listHead = HTTPField.Name("X-List-Head")!
}
