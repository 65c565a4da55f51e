import Foundation
import ProductHosting
import TestSupport
import Testing

/// A demo's generated secret: made once, private to its owner, kept across starts; a kept file too
/// short to be a secret is refused.
@Suite struct GeneratedSecretTests {
    @Test func aDemoSecretIsMadeOncePrivateAndKept() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("jwt-secret")
        let made = try #require(try GeneratedSecret.resolve(nil, named: "JWT_SECRET", demoMode: true, file: file))
        #expect(made.utf8.count >= 32)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        #expect(try GeneratedSecret.resolve(nil, named: "JWT_SECRET", demoMode: true, file: file) == made)
        #expect(try GeneratedSecret.resolve(nil, named: "JWT_SECRET", demoMode: false, file: file) == nil)
    }

    @Test func aKeptFileTooShortToBeASecretIsRefused() throws {
        let directory = try TemporaryDirectory()
        let file = directory.url.appendingPathComponent("jwt-secret")
        try Data("\n".utf8).write(to: file)
        #expect(throws: GeneratedSecret.TooWeak.self) {
            try GeneratedSecret.resolve(nil, named: "JWT_SECRET", demoMode: true, file: file)
        }
    }
}
