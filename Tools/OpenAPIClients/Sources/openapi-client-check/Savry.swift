import HTTPTypes
import OpenAPIRuntime
import SavryClient

/// Savry: dev sign-in as the demo cook ana, then writes (a new recipe, a change to it) and reads (the
/// list, the recipe, the account's export).
@Sendable func checkSavry(_ run: ProductCheck) async throws {
    let anonymous = run.transport()
    let open = Client(serverURL: run.serverURL, transport: anonymous.transport, middlewares: anonymous.middlewares)

    _ = try await run.call("getHealth") {
        switch try await open.getHealth() {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
    let token = try await run.call("signIn") {
        switch try await open.signIn(body: .json(.case2(.init(devUser: "ana")))) {
        case .ok(let ok): try ok.body.json.token
        case let other: throw unexpected(other)
        }
    }

    let signedIn = run.transport(headers: [.authorization: "Bearer \(token)"])
    let client = Client(serverURL: run.serverURL, transport: signedIn.transport, middlewares: signedIn.middlewares)

    _ = try await run.call("listRecipes") {
        switch try await client.listRecipes(query: .init(limit: 50)) {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
    let recipe = Components.Schemas.RecipeCreate(
        name: "Client-checked pancakes",
        description: "Written through the generated client",
        ingredients: [.init(name: "flour", quantity: "200", unit: "g", price: 0.5, onSale: false), .init(name: "milk")],
        instructions: ["Mix", "Fry"],
        prepTime: 5,
        cookTime: 10,
        servings: 2,
        difficulty: "easy",
        dietaryTags: ["vegetarian"],
        estimatedCost: 1.25
    )
    let created = try await run.call("createRecipe") {
        switch try await client.createRecipe(body: .json(recipe)) {
        case .created(let created): try created.body.json
        case let other: throw unexpected(other)
        }
    }
    let fetched = try await run.call("getRecipe") {
        switch try await client.getRecipe(path: .init(id: created.recipeId)) {
        case .ok(let ok): try ok.body.json.recipe
        case let other: throw unexpected(other)
        }
    }
    try expect(fetched.name == "Client-checked pancakes", "getRecipe: name \(fetched.name), created as Client-checked pancakes")
    _ = try await run.call("updateRecipe") {
        switch try await client.updateRecipe(path: .init(id: created.recipeId), body: .json(.init(name: "Client-checked crêpes", servings: 4))) {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
    let list = try await run.call("listRecipes") {
        switch try await client.listRecipes(query: .init(limit: 50)) {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
    try expect(list.recipes.contains { $0.id == created.recipeId }, "listRecipes: the new recipe \(created.recipeId) is not listed")
    _ = try await run.call("exportAccount") {
        switch try await client.exportAccount() {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
}
