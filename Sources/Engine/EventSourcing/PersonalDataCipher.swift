import Foundation

/// Seals and opens the personal values of events (`@Personal` fields) under the data key of the user
/// they belong to: the event's actor. The host hands its event store one backed by its key store;
/// `WithheldPersonalData` opens nothing, for readers that must not show personal data.
public protocol PersonalDataCipher: Sendable {
    /// `value` as the log stores it. `field` names where it is written (its coding path), and is
    /// authenticated with it, so a sealed value moved to another field does not open.
    func seal(_ value: String, owner: Int64, field: String) throws -> String
    /// The value, or nil when its owner was erased. A value written before personal fields were
    /// sealed (in clear, see ops/privacy.md) reads as itself, and as nil once its owner is erased.
    func open(_ stored: String, owner: Int64, field: String) throws -> String?
    /// Makes sure these users have data keys before a batch seals for them: one write for all, or,
    /// with a key store shared by several nodes, one claim there. `seal` throws `KeyNotPrepared` for
    /// an owner whose key must be prepared this way first.
    func prepareKeys(for owners: Set<Int64>) async throws
    /// Whether `user` was erased (their data key destroyed).
    func isErased(_ user: Int64) throws -> Bool
    /// The highest user id that has, or had, a key: a log restored from before that user's sign-up
    /// must not hand their id out again (their key, or their erasure, is still in the key store).
    func highestKnownUser() throws -> Int64
    /// How many times this process has destroyed keys: by an erasure of its own, by one copied from a
    /// key store shared by several nodes, or by a reconciliation. A value opened before this moved may
    /// be an erased user's, so nothing folded from one is kept after it (`FoldedStreams`). A cipher
    /// that wraps another passes its count on; one that never opens a sealed value has 0.
    var keyDestructions: UInt64 { get }
    /// Calls `action` with the new `keyDestructions` each time keys are destroyed, however: what keeps
    /// opened values drops them then, not at its next use.
    func onKeysDestroyed(_ action: @escaping @Sendable (UInt64) -> Void)
    /// Writes values as they are, for showing an event already opened, never for the log: a
    /// structured value (`@PersonalValue`) as its JSON rather than a string.
    var presentsInClear: Bool { get }
}

extension PersonalDataCipher {
    public func prepareKeys(for owners: Set<Int64>) async throws {}
    public func isErased(_ user: Int64) throws -> Bool { false }
    public func highestKnownUser() throws -> Int64 { 0 }
    public var presentsInClear: Bool { false }
}

/// Opens every personal value as absent and seals nothing: for showing an event to someone who must
/// not read its personal data (an operator's audit) and for checks that read only an event's kind.
public struct WithheldPersonalData: PersonalDataCipher {
    public init() {}

    public func seal(_ value: String, owner: Int64, field: String) throws -> String { value }
    public func open(_ stored: String, owner: Int64, field: String) throws -> String? { nil }
    public var keyDestructions: UInt64 { 0 }
    public func onKeysDestroyed(_ action: @escaping @Sendable (UInt64) -> Void) {}
}

/// What `seal` throws when the owner has no data key here and one cannot be made on the spot (a key
/// store shared by several nodes, where a key is agreed with the others first): `prepareKeys`, then
/// seal again.
public struct KeyNotPrepared: Error, Equatable, CustomStringConvertible {
    public var owner: Int64

    public init(owner: Int64) {
        self.owner = owner
    }

    public var description: String {
        "user \(owner) has no data key here, and with a shared key store keys are made only by claiming them there (prepareKeys) before sealing"
    }
}

/// The sealing context an event's encoder and decoder carry, for its `@Personal` fields.
struct PersonalDataCoding: Sendable {
    static let key = CodingUserInfoKey(rawValue: "personalData")!

    let cipher: any PersonalDataCipher
    /// The event's actor: the user whose key seals its personal fields.
    let owner: Int64?

    static func of(_ userInfo: [CodingUserInfoKey: Any], codingPath: [any CodingKey]) throws -> (coding: PersonalDataCoding, owner: Int64, field: String) {
        let field = codingPath.filter { $0.intValue == nil }.map(\.stringValue).joined(separator: ".")
        guard let coding = userInfo[key] as? PersonalDataCoding else { throw PersonalDataCodingError.noCipher(field: field) }
        guard let owner = coding.owner else { throw PersonalDataCodingError.noOwner(field: field) }
        return (coding, owner, field)
    }
}

public enum PersonalDataCodingError: Error, Equatable, CustomStringConvertible {
    case noCipher(field: String)
    case noOwner(field: String)

    public var description: String {
        switch self {
        case .noCipher(let field): "\(field) is personal data, and this event was encoded or decoded without a cipher"
        case .noOwner(let field): "\(field) is personal data, and its event has no actor whose key would seal it"
        }
    }
}

extension PersonalDataCipher {
    /// The encoder an event's payload is written with: keys sorted, slashes plain, personal fields sealed for `owner`.
    public func encoder(owner: Int64?) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.userInfo[PersonalDataCoding.key] = PersonalDataCoding(cipher: self, owner: owner)
        return encoder
    }

    /// The decoder an event's payload is read with: personal fields opened for `owner`.
    public func decoder(owner: Int64?) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.userInfo[PersonalDataCoding.key] = PersonalDataCoding(cipher: self, owner: owner)
        return decoder
    }
}
