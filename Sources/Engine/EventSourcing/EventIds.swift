import Crypto
import Foundation

/// Event ids derived from a name, so the same fact offered twice gets the same id and is recorded once.
/// Names live in a product's namespace (`EventCatalog.eventIdNamespace`), so two products never
/// derive the same id from the same name.
public enum EventIds {
    /// A name-based UUID: SHA-256 of `namespace:name`, with the version bits of a v8 UUID.
    public static func derived(from name: String, namespace: String) -> UUID {
        var bytes = Array(SHA256.hash(data: Data("\(namespace):\(name)".utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// The id of a decision's `index`th event (0 is the first): the decision's own id for the first,
    /// derived from it for the rest, so a decision of several events records each under its own id
    /// and a retry derives the same ones.
    public static func nth(_ index: Int, of decisionId: UUID, namespace: String) -> UUID {
        index == 0 ? decisionId : derived(from: "\(decisionId.uuidString):\(index)", namespace: namespace)
    }
}
