/// A user's account was erased: their data key is destroyed, so every personal field they own
/// reads as absent, and everything that folds users drops or anonymises them. The engine's own
/// event, which every product registers in its catalog (`EventCatalog.userErased`): the host finds
/// erasures in the log by this type name alone, to re-apply them to a key store restored from an
/// older backup.
public struct UserErased: EventPayload {
    public static let typeName = "user-erased"
    public static let schemaVersion: UInt16 = 1

    public enum Initiator: String, Codable, Sendable {
        /// The user deleted their account.
        case user
        /// An operator erased it (a support request).
        case `operator`
        /// The key store recorded the erasure and the log did not (a restore paired a log copied
        /// just before an erasure with a key store copied just after): re-recorded on open.
        case keyStore = "key-store"
    }

    public var userId: Int64
    public var initiator: Initiator

    public init(userId: Int64, initiator: Initiator) {
        self.userId = userId
        self.initiator = initiator
    }
}
