import Foundation

/// Marks a payload field as personal data: in the log it is sealed under its event's actor's data
/// key (`PersonalDataCipher`), and it reads back as nil once that user is erased. The declaration
/// is the field's own: `@Personal public var comment: String?`. Its coding key is part of what the
/// sealed value authenticates, so a personal field keeps its name for good.
@propertyWrapper
public struct Personal: Codable, Sendable, Hashable {
    public var wrappedValue: String?

    public init(wrappedValue: String?) {
        self.wrappedValue = wrappedValue
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard !container.decodeNil() else {
            wrappedValue = nil
            return
        }
        let stored = try container.decode(String.self)
        let (coding, owner, field) = try PersonalDataCoding.of(decoder.userInfo, codingPath: decoder.codingPath)
        wrappedValue = try coding.cipher.open(stored, owner: owner, field: field)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        guard let wrappedValue else { return try container.encodeNil() }
        let (coding, owner, field) = try PersonalDataCoding.of(encoder.userInfo, codingPath: encoder.codingPath)
        try container.encode(try coding.cipher.seal(wrappedValue, owner: owner, field: field))
    }
}

extension KeyedDecodingContainer {
    /// An absent key reads as nil, as an optional field's does.
    public func decode(_ type: Personal.Type, forKey key: Key) throws -> Personal {
        try decodeIfPresent(type, forKey: key) ?? Personal(wrappedValue: nil)
    }
}

extension KeyedEncodingContainer {
    /// nil is left out, as an optional field's is.
    public mutating func encode(_ value: Personal, forKey key: Key) throws {
        try encodeIfPresent(value.wrappedValue == nil ? nil : value, forKey: key)
    }
}

/// Marks a structured payload field as personal data, sealed whole: its JSON is sealed as one
/// value, as `@Personal` seals a string (a recipe's every field, say, rather than each one). It
/// reads back as nil once its owner is erased. A value written in clear before sealing (the JSON
/// itself rather than a sealed string) reads as itself until then.
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
        // Written in clear before sealing: the JSON itself, which the cipher opens as it opens any
        // clear value (as itself, or absent once its owner is erased, or withheld).
        let stored = try (try? container.decode(String.self)) ?? Self.json(try container.decode(Value.self))
        wrappedValue = try coding.cipher.open(stored, owner: owner, field: field).map { try JSONDecoder().decode(Value.self, from: Data($0.utf8)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        guard let wrappedValue else { return try container.encodeNil() }
        let (coding, owner, field) = try PersonalDataCoding.of(encoder.userInfo, codingPath: encoder.codingPath)
        guard !coding.cipher.presentsInClear else { return try container.encode(wrappedValue) }
        try container.encode(try coding.cipher.seal(try Self.json(wrappedValue), owner: owner, field: field))
    }

    private static func json(_ value: Value) throws -> String {
        let json = JSONEncoder()
        json.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try json.encode(value), as: UTF8.self)
    }
}

extension KeyedDecodingContainer {
    public func decode<Value>(_ type: PersonalValue<Value>.Type, forKey key: Key) throws -> PersonalValue<Value> {
        try decodeIfPresent(type, forKey: key) ?? PersonalValue(wrappedValue: nil)
    }
}

extension KeyedEncodingContainer {
    public mutating func encode<Value>(_ value: PersonalValue<Value>, forKey key: Key) throws {
        try encodeIfPresent(value.wrappedValue == nil ? nil : value, forKey: key)
    }
}
