import Foundation
import HTTPTypes
import SavryDomain
import Testing

@Suite(.timeLimit(.minutes(3))) struct RecipesAPITests {
    static let full = #"""
    {"name":" Chicken Stir Fry ","description":"Fast weeknight dinner",
     "ingredients":[{"name":"chicken breast","quantity":"1","unit":"lb","price":5.5,"store":"Corner Shop","onSale":true,"aisle":"4","section":"Meat"},
                    {"name":"broccoli","quantity":"2","unit":"cups"}],
     "instructions":["Cut chicken","Cook chicken","Add veggies"],
     "prepTime":10,"cookTime":15,"servings":4,"calories":450,"difficulty":"easy","cuisine":"Asian","dietaryTags":["gluten-free"],
     "imageUrl":null,"estimatedCost":12.5,"isPublic":false}
    """#
    static let recipeKeys: Set<String> = [
        "id", "userId", "name", "description", "ingredients", "instructions", "prepTime", "cookTime", "servings", "calories", "difficulty",
        "cuisine", "dietaryTags", "imageUrl", "estimatedCost", "isPublic", "createdAt", "updatedAt",
    ]
    static let ingredientKeys: Set<String> = ["name", "quantity", "unit", "price", "store", "onSale", "aisle", "section"]

    @Test func everyEndpointOfTheContract() async throws {
        try await SavryLiveServer.run { server in
            let client = server.client
            let token = try await client.token("ana")

            let created = try await client.send(.post, "/api/app/recipes", token: token, body: Self.full)
            #expect(created.status == .created)
            #expect(created.json["success"] as? Bool == true)
            let id = try #require(created.json["recipeId"] as? String)
            let recipe = created.recipe
            #expect(recipe["id"] as? String == id && RecipeId.isWellFormed(id))
            #expect(recipe["userId"] as? String == "1")
            #expect(recipe["name"] as? String == "Chicken Stir Fry")
            #expect(recipe["isPublic"] as? Bool == false)
            #expect(recipe["estimatedCost"] as? Double == 12.5 && recipe["servings"] as? Int == 4 && recipe["imageUrl"] is NSNull)
            #expect(recipe["instructions"] as? [String] == ["Cut chicken", "Cook chicken", "Add veggies"])
            let ingredients = try #require(recipe["ingredients"] as? [[String: Any]])
            #expect(ingredients.count == 2 && ingredients[0]["onSale"] as? Bool == true && ingredients[0]["price"] as? Double == 5.5)
            #expect(ingredients.allSatisfy { Set($0.keys) == Self.ingredientKeys })
            #expect(ingredients[1]["price"] is NSNull && ingredients[1]["store"] is NSNull)
            #expect(Set(recipe.keys) == Self.recipeKeys)
            let stamp = try #require(recipe["updatedAt"] as? String)
            #expect(stamp.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/) != nil)
            #expect(created.headers[.requestId] != nil)

            let fetched = try await client.send(.get, "/api/app/recipes/\(id)", token: token)
            #expect(fetched.status == .ok && fetched.json["success"] as? Bool == true && fetched.recipe["name"] as? String == "Chicken Stir Fry")
            #expect(Set(fetched.json.keys) == ["success", "recipe"])

            let listed = try await client.send(.get, "/api/app/recipes", token: token)
            #expect(listed.status == .ok && listed.json["success"] as? Bool == true)
            #expect((listed.json["recipes"] as? [[String: Any]])?.map { $0["id"] as? String } == [id])
            #expect(listed.json.keys.contains("nextCursor") && listed.json["nextCursor"] is NSNull)
            #expect(listed.headers[.listHead] == stamp)

            let patched = try await client.send(.patch, "/api/app/recipes/\(id)", token: token, body: #"{"name":"Better Chicken Stir Fry","dietaryTags":["gluten-free","dairy-free"]}"#)
            #expect(patched.status == .ok && patched.json["success"] as? Bool == true)
            #expect(patched.recipe["name"] as? String == "Better Chicken Stir Fry" && patched.recipe["dietaryTags"] as? [String] == ["gluten-free", "dairy-free"])
            #expect(patched.recipe["cuisine"] as? String == "Asian" && patched.recipe["createdAt"] as? String == stamp)
            #expect((patched.recipe["updatedAt"] as? String).map { $0 > stamp } == true)

            let deleted = try await client.send(.delete, "/api/app/recipes/\(id)", token: token)
            #expect(deleted.status == .ok && deleted.text == #"{"success":true}"#)
            for (method, body) in [(HTTPRequest.Method.get, nil), (.patch, #"{"name":"Again"}"#), (.delete, nil)] {
                let gone = try await client.send(method, "/api/app/recipes/\(id)", token: token, body: body)
                #expect(gone.status == .notFound && gone.isErrorShape, "\(method)")
            }
            let empty = try await client.send(.get, "/api/app/recipes", token: token)
            #expect((empty.json["recipes"] as? [Any])?.isEmpty == true && empty.headers[.listHead] == nil)
        }
    }

    @Test func everyOptionalFieldIsPresentAsNull() async throws {
        try await SavryLiveServer.run { server in
            let token = try await server.client.token("ana")
            let created = try await server.client.send(.post, "/api/app/recipes", token: token, body: #"{"name":"Toast","ingredients":[{"name":"bread"}],"instructions":[]}"#)
            #expect(created.status == .created)
            let recipe = created.recipe
            #expect(Set(recipe.keys) == Self.recipeKeys)
            for key in ["description", "prepTime", "cookTime", "servings", "calories", "difficulty", "cuisine", "dietaryTags", "imageUrl", "estimatedCost"] {
                #expect(recipe[key] is NSNull, "\(key)")
            }
            #expect((recipe["instructions"] as? [Any])?.isEmpty == true)
            let ingredient = try #require((recipe["ingredients"] as? [[String: Any]])?.first)
            #expect(Set(ingredient.keys) == Self.ingredientKeys)
            for key in Self.ingredientKeys.subtracting(["name"]) { #expect(ingredient[key] is NSNull, "\(key)") }

            let id = try #require(created.json["recipeId"] as? String)
            let cleared = try await server.client.send(.patch, "/api/app/recipes/\(id)", token: token, body: #"{"cuisine":"Welsh","servings":2}"#)
            #expect(cleared.recipe["cuisine"] as? String == "Welsh")
            let nulled = try await server.client.send(.patch, "/api/app/recipes/\(id)", token: token, body: #"{"cuisine":null}"#)
            #expect(nulled.status == .ok && nulled.recipe["cuisine"] is NSNull && nulled.recipe["servings"] as? Int == 2)
        }
    }

    @Test func aPatchRecordsOnlyTheFieldsThatChange() async throws {
        try await SavryLiveServer.run { server in
            let client = server.client
            let token = try await client.token("ana")
            let id = try await client.create(token, Self.full)
            var head = server.storage.log.headPosition
            let patched = try await client.send(.patch, "/api/app/recipes/\(id)", token: token, body: #"{"name":"Stir Fry","servings":4,"description":null,"cuisine":"Asian"}"#)
            #expect(patched.status == .ok)
            #expect(try server.storage.events(after: head) == [
                .recipeUpdated(RecipeUpdated(recipeId: id, userId: 1, changes: RecipeChanges(name: "Stir Fry", description: .some(nil)))),
            ])
            head = server.storage.log.headPosition
            for unchanged in ["{}", #"{"servings":4,"name":" Stir Fry "}"#] {
                let reply = try await client.send(.patch, "/api/app/recipes/\(id)", token: token, body: unchanged)
                #expect(reply.status == .ok && reply.recipe["name"] as? String == "Stir Fry", "\(unchanged)")
            }
            #expect(server.storage.log.headPosition == head)
        }
    }

    @Test func aRetryUnderTheSameIdempotencyKeyCreatesOneRecipe() async throws {
        try await SavryLiveServer.run { server in
            let token = try await server.client.token("ana")
            let first = try await server.client.send(.post, "/api/app/recipes", token: token, body: Self.full, headers: [.idempotencyKey: "k-1"])
            let head = server.storage.log.headPosition
            let again = try await server.client.send(.post, "/api/app/recipes", token: token, body: Self.full, headers: [.idempotencyKey: "k-1"])
            #expect(first.status == .created && again.status == .created)
            #expect(first.json["recipeId"] as? String == again.json["recipeId"] as? String)
            #expect(server.storage.log.headPosition == head)
            let other = try await server.client.send(.post, "/api/app/recipes", token: token, body: #"{"name":"Other","ingredients":[],"instructions":[]}"#, headers: [.idempotencyKey: "k-1"])
            #expect(other.status == .unprocessableContent && other.isErrorShape)
        }
    }
}
