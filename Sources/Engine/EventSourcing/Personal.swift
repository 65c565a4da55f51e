import Foundation

/// Marks a payload field as personal data: in the log it is sealed under its event's actor's data
/// key (`PersonalDataCipher`), and it reads back as nil once that user is erased. The declaration
/// is the field's own: `@Personal public var comment: String?`, or for a structured value sealed
/// whole `@PersonalValue public var fields: RecipeFields?` (a JSON object or array). The field's
/// coding key is part of what the sealed value authenticates, so a personal field keeps its name
/// for good.
public typealias Personal = PersonalValue<String>

@propertyWrapper
public struct PersonalValue<Value: Codable & Sendable & Hashable>: Codable, Sendable, Hashable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard !container.decodeNil() else {
            wrappedValue = nil
            return
        }
        let (coding, owner, field) = try PersonalDataCoding.of(decoder.userInfo, codingPath: decoder.codingPath)
        // A value written in clear before sealing is opened as any clear value is (as itself, absent
        // once its owner is erased, or withheld).
        let stored = try (try? container.decode(String.self)) ?? Self.plaintext(try container.decode(Value.self))
        wrappedValue = try coding.cipher.open(stored, owner: owner, field: field).map(Self.value)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        guard let wrappedValue else { return try container.encodeNil() }
        let (coding, owner, field) = try PersonalDataCoding.of(encoder.userInfo, codingPath: encoder.codingPath)
        guard !coding.cipher.presentsInClear else { return try container.encode(wrappedValue) }
        try container.encode(try coding.cipher.seal(try Self.plaintext(wrappedValue), owner: owner, field: field))
    }

    /// A string is its own plaintext (so one written in clear reads back as itself); anything else, its JSON.
    private static func plaintext(_ value: Value) throws -> String {
        if let string = value as? String { return string }
        return String(decoding: try PersonalValueJSON.encoder.encode(value), as: UTF8.self)
    }

    private static func value(_ plaintext: String) throws -> Value {
        if let string = plaintext as? Value { return string }
        return try PersonalValueJSON.decoder.decode(Value.self, from: Data(plaintext.utf8))
    }
}

/// One encoder and decoder for every structured personal value: making them is a good part of what
/// sealing and opening one costs (BENCHMARKS.md), and their options never change after this.
private enum PersonalValueJSON {
    static let encoder: JSONEncoder = {
        let json = JSONEncoder()
        json.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return json
    }()
    static let decoder = JSONDecoder()
}

extension KeyedDecodingContainer {
    /// An absent key reads as nil, as an optional field's does.
    public func decode<Value>(_ type: PersonalValue<Value>.Type, forKey key: Key) throws -> PersonalValue<Value> {
        try decodeIfPresent(type, forKey: key) ?? PersonalValue(wrappedValue: nil)
    }
}

extension KeyedEncodingContainer {
    /// nil is left out, as an optional field's is.
    public mutating func encode<Value>(_ value: PersonalValue<Value>, forKey key: Key) throws {
        try encodeIfPresent(value.wrappedValue == nil ? nil : value, forKey: key)
    }
}
