import Foundation
import PersonalData
import Synchronization
import TestSupport
import Testing

@Suite struct KeyStoreCipherTests {
    /// Whoever keeps opened values is told of each destruction as it is made, with the new count.
    @Test func everyDestructionIsToldAsItIsMade() throws {
        let directory = try TemporaryDirectory()
        let fields = KeyStoreCipher(keys: try KeyStore(path: keyStorePath(in: directory), masterKey: randomMasterKey()))
        let told = Mutex<[UInt64]>([])
        fields.onKeysDestroyed { count in told.withLock { $0.append(count) } }
        _ = try fields.seal("x", owner: 7, field: "f")
        #expect(fields.keyDestructions == 0 && told.withLock { $0 } == [])
        try fields.keys.destroy(7)
        try fields.keys.applyErasures([KeyStore.Erasure(userId: 8, position: 3), KeyStore.Erasure(userId: 9, position: 4)])
        #expect(fields.keyDestructions == 2 && told.withLock { $0 } == [1, 2])
    }

    @Test func aSealedValueOpensForItsUserAndContextOnly() throws {
        let directory = try TemporaryDirectory()
        let fields = KeyStoreCipher(keys: try KeyStore(path: keyStorePath(in: directory), masterKey: randomMasterKey()))
        let sealed = try fields.seal("Ada Lovelace ✨", owner: 7, field: "user-registered.name")
        #expect(sealed.hasPrefix("pd1:") && !sealed.contains("Ada"))
        #expect(try fields.seal("Ada Lovelace ✨", owner: 7, field: "user-registered.name") == sealed, "the same value seals the same: a retry is the same event")
        #expect(try fields.seal("Ada Lovelace ✩", owner: 7, field: "user-registered.name").prefix(20) != sealed.prefix(20), "another value, another nonce")
        #expect(try fields.seal("Ada Lovelace ✨", owner: 7, field: "profile-updated.name") != sealed, "another field, other bytes")
        #expect(try fields.open(sealed, owner: 7, field: "user-registered.name") == "Ada Lovelace ✨")
        #expect(try fields.open(try fields.seal("", owner: 7, field: "c"), owner: 7, field: "c") == "")

        _ = try fields.seal("someone else", owner: 8, field: "user-registered.name")
        #expect(throws: KeyStoreCipher.Failure.unauthentic(userId: 8, field: "user-registered.name")) {
            try fields.open(sealed, owner: 8, field: "user-registered.name")
        }
        #expect(throws: KeyStoreCipher.Failure.unauthentic(userId: 7, field: "review-written.text")) {
            try fields.open(sealed, owner: 7, field: "review-written.text")
        }
        #expect(throws: KeyStoreCipher.Failure.noKey(userId: 9, field: "user-registered.name")) {
            try fields.open(sealed, owner: 9, field: "user-registered.name")
        }
    }

    @Test func anAlteredValueThrows() throws {
        let directory = try TemporaryDirectory()
        let fields = KeyStoreCipher(keys: try KeyStore(path: keyStorePath(in: directory), masterKey: randomMasterKey()))
        let sealed = try fields.seal("a review", owner: 7, field: "review-written.text")
        var bytes = try #require(Data(base64Encoded: String(sealed.dropFirst(4))))
        for index in [0, 12, bytes.count - 1] {  // the nonce, the ciphertext, the tag
            var altered = bytes
            altered[index] ^= 1
            #expect(throws: KeyStoreCipher.Failure.unauthentic(userId: 7, field: "review-written.text")) {
                try fields.open("pd1:" + altered.base64EncodedString(), owner: 7, field: "review-written.text")
            }
        }
        bytes.removeLast(20)
        #expect(throws: KeyStoreCipher.Failure.unauthentic(userId: 7, field: "review-written.text")) {
            try fields.open("pd1:" + bytes.base64EncodedString(), owner: 7, field: "review-written.text")
        }
        #expect(throws: KeyStoreCipher.Failure.notSealed(field: "review-written.text")) {
            try fields.open("pd1:***", owner: 7, field: "review-written.text")
        }
    }

    @Test func aValueWrittenInClearBeforeSealingReadsAsItselfUntilItsOwnerIsErased() throws {
        let directory = try TemporaryDirectory()
        let fields = KeyStoreCipher(keys: try KeyStore(path: keyStorePath(in: directory), masterKey: randomMasterKey()))
        _ = try fields.seal("a review", owner: 7, field: "review-written.text")
        #expect(try fields.open("an old review", owner: 7, field: "review-written.text") == "an old review")
        #expect(try fields.open("pd2:not ours", owner: 7, field: "review-written.text") == "pd2:not ours")
        try fields.keys.destroy(7)
        #expect(try fields.open("an old review", owner: 7, field: "review-written.text") == nil)
    }

    @Test func anErasedUsersValuesOpenAsAbsentAndNothingNewIsSealedForThem() throws {
        let directory = try TemporaryDirectory()
        let fields = KeyStoreCipher(keys: try KeyStore(path: keyStorePath(in: directory), masterKey: randomMasterKey()))
        let sealed = try fields.seal("a review", owner: 7, field: "review-written.text")
        let othersSealed = try fields.seal("another review", owner: 8, field: "review-written.text")
        try fields.keys.destroy(7)

        #expect(try fields.open(sealed, owner: 7, field: "review-written.text") == nil)
        #expect(try fields.open(othersSealed, owner: 8, field: "review-written.text") == "another review")
        #expect(throws: KeyStore.Failure.keyDestroyed(userId: 7)) { try fields.seal("again", owner: 7, field: "review-written.text") }
    }
}
