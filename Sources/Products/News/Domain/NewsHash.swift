import Crypto
import EventSourcing
import Foundation

enum NewsHash {
    static func hex(_ text: String) -> String {
        SHA256.hash(data: Data(text.utf8)).lowercaseHex
    }
}
