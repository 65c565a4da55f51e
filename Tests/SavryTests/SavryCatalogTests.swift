import EventSourcing
import Foundation
import PersonalData
import SavryDomain
import TestSupport
import Testing

/// The log form of every event, sealed and opened by a real key store (SQLite, in a temp dir).
@Suite struct SavryCatalogTests {
    /// One event of every case.
    static let samples: [SavryEvent] = [
        .identityClaimed(IdentityClaimed(identity: SavryIdentity(provider: .apple, subject: "001.abc"), userId: 1)),
        .userRegistered(UserRegistered(userId: 1, provider: .apple)),
        .recipeCreated(RecipeCreated(recipeId: "r1", userId: 1, fields: soup)),
        .recipeUpdated(RecipeUpdated(recipeId: "r1", userId: 1, changes: RecipeChanges(name: "Leek Soup", description: .some(nil), servings: 4))),
        .recipeDeleted(RecipeDeleted(recipeId: "r1", userId: 1)),
        .signedOut(SignedOut(userId: 1, tokenId: "5B0C1F7A-2D4E-4C58-9F3A-0D6E2B7C8A91", expiresAt: 1_767_225_600)),
        .userErased(UserErased(userId: 1, initiator: .user)),
    ]

    static let soup = RecipeFields(
        name: "Secret Leek Soup", description: nil, ingredients: [RecipeIngredient(name: "leek", quantity: "2", price: 1.5, onSale: true)],
        instructions: ["Chop the leeks finely", "Simmer"], prepTime: 5, dietaryTags: ["vegan"], estimatedCost: 3.25
    )

    /// Fails to compile when a case is added, so that a sample of it is added above.
    static func caseName(_ event: SavryEvent) -> String {
        switch event {
        case .identityClaimed: "identityClaimed"
        case .userRegistered: "userRegistered"
        case .recipeCreated: "recipeCreated"
        case .recipeUpdated: "recipeUpdated"
        case .recipeDeleted: "recipeDeleted"
        case .signedOut: "signedOut"
        case .userErased: "userErased"
        }
    }

    /// A key store of its own in a temp dir, and its cipher.
    struct Keys {
        let directory: TemporaryDirectory
        let cipher: KeyStoreCipher

        init() throws {
            directory = try TemporaryDirectory()
            cipher = KeyStoreCipher(keys: try KeyStore(dataDirectory: directory.url, masterKey: SavryStorage.masterKey))
        }

        func encode(_ event: SavryEvent) throws -> EncodedEvent {
            try SavryCatalog.encode(event, with: cipher.encoder(owner: SavryCatalog.actorUserId(of: event)))
        }

        func decode(_ encoded: EncodedEvent, actor: Int64?) throws -> SavryEvent {
            try SavryCatalog.decode(type: encoded.type, schemaVersion: encoded.schemaVersion, payload: encoded.payload, with: cipher.decoder(owner: actor))
        }
    }

    @Test func everyCaseHasASampleAndEveryRegisteredTypeIsSampled() throws {
        let cipher = try testKeyStore(in: try TemporaryDirectory())
        #expect(try CatalogCheck.problems(SavryCatalog.self, samples: Self.samples, caseName: Self.caseName, cipher: cipher) == [])
    }

    @Test(arguments: samples)
    func everyEventRoundTripsThroughTheSealedLogForm(_ event: SavryEvent) throws {
        let keys = try Keys()
        #expect(try keys.decode(try keys.encode(event), actor: 1) == event)
        #expect(SavryCatalog.actorUserId(of: event) == 1)
    }

    @Test func personalFieldsAreSealedAndTheRestIsInClear() throws {
        let keys = try Keys()
        let created = String(decoding: try keys.encode(Self.samples[2]).payload, as: UTF8.self)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(created.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["recipeId", "userId", "fields"])
        #expect((object["fields"] as? String)?.hasPrefix(KeyStoreCipher.prefix) == true)
        #expect(object["recipeId"] as? String == "r1" && object["userId"] as? Int == 1)
        for secret in ["Secret Leek Soup", "leek", "Chop the leeks"] { #expect(!created.contains(secret)) }

        let claimed = String(decoding: try keys.encode(Self.samples[0]).payload, as: UTF8.self)
        #expect(!claimed.contains("001.abc") && claimed.contains(#""provider":"apple""#) && claimed.contains(#""subject":"pd1:"#))
    }

    @Test func anUpdateSealsOnlyWhatChangedAndKeepsClearedApartFromUnchanged() throws {
        let keys = try Keys()
        let updated = SavryEvent.recipeUpdated(RecipeUpdated(recipeId: "r1", userId: 1, changes: RecipeChanges(description: .some(nil), prepTime: .some(5))))
        let payload = try #require(try JSONSerialization.jsonObject(with: try keys.encode(updated).payload) as? [String: Any])
        let sealed = try #require(payload["changes"] as? String)
        #expect(try keys.cipher.open(sealed, owner: 1, field: "changes") == #"{"description":null,"prepTime":5}"#)
        #expect(throws: KeyStoreCipher.Failure.unauthentic(userId: 1, field: "fields"), "a sealed value does not open in another field") {
            try keys.cipher.open(sealed, owner: 1, field: "fields")
        }
    }

    @Test func onceTheOwnerIsErasedTheirPersonalFieldsReadAsAbsent() throws {
        let keys = try Keys()
        let claim = try keys.encode(Self.samples[0])
        let created = try keys.encode(Self.samples[2])
        let updated = try keys.encode(Self.samples[3])
        try keys.cipher.keys.destroy(1)
        #expect(try keys.decode(claim, actor: 1) == .identityClaimed(IdentityClaimed(identity: SavryIdentity(provider: .apple, subject: "001.abc"), userId: 1).withoutSubject))
        #expect(try keys.decode(created, actor: 1) == .recipeCreated(RecipeCreated(recipeId: "r1", userId: 1, fields: nil)))
        #expect(try keys.decode(updated, actor: 1) == .recipeUpdated(RecipeUpdated(recipeId: "r1", userId: 1, changes: nil)))
        #expect(RecipeState.fold([try keys.decode(created, actor: 1), try keys.decode(updated, actor: 1)]) == .erased(owner: 1))
    }

    @Test func aLogWrittenInClearStillReadsUntilItsOwnerIsErased() throws {
        let keys = try Keys()
        let legacy = EncodedEvent(type: "recipe-created", schemaVersion: 1, payload: Data(#"{"recipeId":"r1","userId":1,"fields":{"name":"Old Soup","ingredients":[],"instructions":["Stir"]}}"#.utf8))
        let expected = RecipeCreated(recipeId: "r1", userId: 1, fields: RecipeFields(name: "Old Soup", instructions: ["Stir"]))
        #expect(try keys.decode(legacy, actor: 1) == .recipeCreated(expected))
        let claim = EncodedEvent(type: "identity-claimed", schemaVersion: 1, payload: Data(#"{"provider":"dev","subject":"ana","userId":1}"#.utf8))
        #expect(try keys.decode(claim, actor: 1) == .identityClaimed(IdentityClaimed(identity: SavryIdentity(provider: .dev, subject: "ana"), userId: 1)))
        try keys.cipher.keys.destroy(1)
        #expect(try keys.decode(legacy, actor: 1) == .recipeCreated(RecipeCreated(recipeId: "r1", userId: 1, fields: nil)))
    }

    @Test func anOperatorsErasureIsNobodysActionAndConcernsItsUser() throws {
        let erased = SavryEvent.userErased(UserErased(userId: 7, initiator: .operator))
        #expect(SavryCatalog.actorUserId(of: erased) == nil)
        #expect(SavryCatalog.subjectUserIds(of: erased) == [7])
        #expect(SavryCatalog.subjectUserIds(of: .userErased(UserErased(userId: 7, initiator: .user))) == [])
        let keys = try Keys()
        let encoded = try keys.encode(erased)
        #expect(String(decoding: encoded.payload, as: UTF8.self) == #"{"initiator":"operator","userId":7}"#)
        // What the engine reads when it reconciles the key store with the log's erasures.
        #expect(try JSONDecoder().decode(UserErased.self, from: encoded.payload) == UserErased(userId: 7, initiator: .operator))
    }

    @Test func anUnknownTypeIsRefused() throws {
        let keys = try Keys()
        #expect(throws: PayloadCatalogFailure.unknownType("recipe-published", schemaVersion: 1)) {
            try keys.decode(EncodedEvent(type: "recipe-published", schemaVersion: 1, payload: Data("{}".utf8)), actor: 1)
        }
    }
}

extension IdentityClaimed {
    /// The claim as it reads once its user is erased.
    fileprivate var withoutSubject: IdentityClaimed {
        var claim = self
        claim.subject = nil
        return claim
    }
}
