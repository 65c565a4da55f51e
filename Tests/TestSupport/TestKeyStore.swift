import Foundation
import PersonalData

/// A real key store in `directory` (`keys/keys.sqlite`) under a random master key: what tests seal
/// and open personal fields with. Closed when the directory goes.
public func testKeyStore(in directory: TemporaryDirectory) throws -> KeyStoreCipher {
    let masterKey = try MasterKey(base64: Data((0..<MasterKey.byteCount).map { _ in UInt8.random(in: .min ... .max) }).base64EncodedString(), source: "test")
    return KeyStoreCipher(keys: try KeyStore(dataDirectory: directory.url, masterKey: masterKey))
}

/// The key store of a demo data directory (the server's own, under the master key it generated
/// there): for tests that fold a server's log themselves.
public func demoKeyStore(of dataDirectory: URL) throws -> KeyStoreCipher {
    let masterKey = try MasterKey(contentsOf: dataDirectory.appendingPathComponent("demo-master-key"))
    return KeyStoreCipher(keys: try KeyStore(dataDirectory: dataDirectory, masterKey: masterKey))
}
