import Foundation
import PersonalData

/// A real key store in `directory` (`keys/keys.sqlite`) under a random master key kept beside it (so
/// opening it again finds the same keys): what tests seal and open personal fields with.
public func testKeyStore(in directory: TemporaryDirectory) throws -> KeyStoreCipher {
    let masterKey = try MasterKey.demo(file: directory.url.appendingPathComponent("test-master-key"))
    return KeyStoreCipher(keys: try KeyStore(dataDirectory: directory.url, masterKey: masterKey))
}

/// The key store of a demo data directory (the server's own, under the master key it generated
/// there): for tests that fold a server's log themselves.
public func demoKeyStore(of dataDirectory: URL) throws -> KeyStoreCipher {
    let masterKey = try MasterKey(contentsOf: dataDirectory.appendingPathComponent("demo-master-key"))
    return KeyStoreCipher(keys: try KeyStore(dataDirectory: dataDirectory, masterKey: masterKey))
}

/// A `<PRODUCT>_MASTER_KEY` value (32 bytes, base64) for a server configured outside demo mode.
public let configuredMasterKey = Data(repeating: 7, count: 32).base64EncodedString()

/// The key store a product's first start leaves in `dataDirectory` (no key, no erasure), under a master
/// key of its own: a machine installed and started once before it is restored onto.
public func firstStartKeyStore(in dataDirectory: URL) throws {
    let masterKey = try MasterKey(base64: Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString(), source: "first start")
    try KeyStore(dataDirectory: dataDirectory, masterKey: masterKey).close()
}
