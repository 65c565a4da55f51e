import Crypto
import Foundation
import PersonalData
import TestSupport

func randomMasterKey() throws -> MasterKey {
    try MasterKey(base64: SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }.base64EncodedString(), source: "test")
}

func bytes(of key: SymmetricKey?) -> Data? {
    key?.withUnsafeBytes { Data($0) }
}

func keyStorePath(in directory: TemporaryDirectory, _ name: String = "keys.sqlite") -> String {
    directory.url.appendingPathComponent("keys").appendingPathComponent(name).path
}
