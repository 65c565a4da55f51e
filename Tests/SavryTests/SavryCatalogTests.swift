import EventSourcing
import Foundation
import SavryDomain
import Testing

@Suite struct SavryCatalogTests {
    /// One event of every case.
    static let samples: [SavryEvent] = [
        .identityClaimed(IdentityClaimed(identity: SavryIdentity(provider: .apple, subject: "001.abc"), userId: 1)),
        .userRegistered(UserRegistered(userId: 1, provider: .apple)),
        .recipeCreated(RecipeCreated(recipeId: "r1", userId: 1, fields: RecipeFields(
            name: "Soup", description: nil, ingredients: [RecipeIngredient(name: "leek", quantity: "2", price: 1.5, onSale: true)],
            instructions: ["Chop", "Simmer"], prepTime: 5, dietaryTags: ["vegan"], estimatedCost: 3.25
        ))),
        .recipeUpdated(RecipeUpdated(recipeId: "r1", userId: 1, changes: RecipeChanges(name: "Leek Soup", description: .some(nil), servings: 4))),
        .recipeDeleted(RecipeDeleted(recipeId: "r1", userId: 1)),
    ]

    /// Fails to compile when a case is added, so that a sample of it is added above.
    static func caseName(_ event: SavryEvent) -> String {
        switch event {
        case .identityClaimed: "identityClaimed"
        case .userRegistered: "userRegistered"
        case .recipeCreated: "recipeCreated"
        case .recipeUpdated: "recipeUpdated"
        case .recipeDeleted: "recipeDeleted"
        }
    }

    @Test func everyCaseHasASampleAndEveryRegisteredTypeIsSampled() {
        #expect(Set(Self.samples.map(Self.caseName)).count == Self.samples.count)
        #expect(Set(Self.samples.map { type(of: $0.payload).typeName }) == Set(SavryCatalog.payloadTypes.map { $0.typeName }))
        #expect(Set(SavryCatalog.payloadTypes.map { $0.typeName }).count == SavryCatalog.payloadTypes.count)
    }

    @Test(arguments: samples)
    func everyEventRoundTripsThroughTheLogForm(_ event: SavryEvent) throws {
        let encoded = try SavryCatalog.encode(event)
        #expect(try SavryCatalog.decode(type: encoded.type, schemaVersion: encoded.schemaVersion, payload: encoded.payload) == event)
        #expect(SavryCatalog.actorUserId(of: event) == 1)
    }

    @Test func anUpdateHoldsOnlyWhatChangedAndKeepsClearedApartFromUnchanged() throws {
        let updated = SavryEvent.recipeUpdated(RecipeUpdated(recipeId: "r1", userId: 1, changes: RecipeChanges(description: .some(nil), prepTime: .some(5))))
        let json = String(decoding: try SavryCatalog.encode(updated).payload, as: UTF8.self)
        #expect(json == #"{"changes":{"description":null,"prepTime":5},"recipeId":"r1","userId":1}"#)
    }

    @Test func anUnknownTypeIsRefused() {
        #expect(throws: SavryCatalog.CodingFailure.unknownType("recipe-published", schemaVersion: 1)) {
            try SavryCatalog.decode(type: "recipe-published", schemaVersion: 1, payload: Data("{}".utf8))
        }
    }
}
