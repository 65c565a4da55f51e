import Foundation
import PersonalData
import TestSupport
import Testing

@Suite struct PersonalFieldsTests {
    @Test func aSealedValueOpensForItsUserAndContextOnly() throws {
        let directory = try TemporaryDirectory()
        let fields = PersonalFields(keys: try KeyStore(path: keyStorePath(in: directory), masterKey: randomMasterKey()))
        let sealed = try fields.seal("Ada Lovelace ✨", for: 7, context: "user-registered.name")
        #expect(sealed.hasPrefix("pd1:") && !sealed.contains("Ada"))
        #expect(try fields.seal("Ada Lovelace ✨", for: 7, context: "user-registered.name") != sealed, "a fresh nonce each time")
        #expect(try fields.open(sealed, for: 7, context: "user-registered.name") == "Ada Lovelace ✨")
        #expect(try fields.open(try fields.seal("", for: 7, context: "c"), for: 7, context: "c") == "")

        _ = try fields.seal("someone else", for: 8, context: "user-registered.name")
        #expect(throws: PersonalFields.Failure.unauthentic(userId: 8, context: "user-registered.name")) {
            try fields.open(sealed, for: 8, context: "user-registered.name")
        }
        #expect(throws: PersonalFields.Failure.unauthentic(userId: 7, context: "review-written.text")) {
            try fields.open(sealed, for: 7, context: "review-written.text")
        }
        #expect(throws: PersonalFields.Failure.noKey(userId: 9, context: "user-registered.name")) {
            try fields.open(sealed, for: 9, context: "user-registered.name")
        }
    }

    @Test func anAlteredValueThrows() throws {
        let directory = try TemporaryDirectory()
        let fields = PersonalFields(keys: try KeyStore(path: keyStorePath(in: directory), masterKey: randomMasterKey()))
        let sealed = try fields.seal("a review", for: 7, context: "review-written.text")
        var bytes = try #require(Data(base64Encoded: String(sealed.dropFirst(4))))
        for index in [0, 12, bytes.count - 1] {  // the nonce, the ciphertext, the tag
            var altered = bytes
            altered[index] ^= 1
            #expect(throws: PersonalFields.Failure.unauthentic(userId: 7, context: "review-written.text")) {
                try fields.open("pd1:" + altered.base64EncodedString(), for: 7, context: "review-written.text")
            }
        }
        bytes.removeLast(20)
        #expect(throws: PersonalFields.Failure.unauthentic(userId: 7, context: "review-written.text")) {
            try fields.open("pd1:" + bytes.base64EncodedString(), for: 7, context: "review-written.text")
        }
        for notSealed in ["a review", "pd1:***", "pd2:" + sealed.dropFirst(4)] {
            #expect(throws: PersonalFields.Failure.notSealed(context: "review-written.text")) {
                try fields.open(notSealed, for: 7, context: "review-written.text")
            }
        }
    }

    @Test func anErasedUsersValuesOpenAsAbsentAndNothingNewIsSealedForThem() throws {
        let directory = try TemporaryDirectory()
        let fields = PersonalFields(keys: try KeyStore(path: keyStorePath(in: directory), masterKey: randomMasterKey()))
        let sealed = try fields.seal("a review", for: 7, context: "review-written.text")
        let othersSealed = try fields.seal("another review", for: 8, context: "review-written.text")
        try fields.keys.destroy(7)

        #expect(try fields.open(sealed, for: 7, context: "review-written.text") == nil)
        #expect(try fields.open(othersSealed, for: 8, context: "review-written.text") == "another review")
        #expect(throws: KeyStore.Failure.keyDestroyed(userId: 7)) { try fields.seal("again", for: 7, context: "review-written.text") }
    }
}
