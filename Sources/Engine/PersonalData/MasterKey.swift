import Crypto
import Foundation

/// The key that wraps every user's data key in the `KeyStore`: 32 bytes, base64, from configuration
/// (an environment value or a file), or in demo mode generated once into a file of the data
/// directory. Never generated otherwise: a key made up at start would leave every key wrapped under
/// the previous one unreadable, which is the same as erasing every user.
public struct MasterKey: Sendable {
    public static let byteCount = 32

    let key: SymmetricKey

    /// `base64` (surrounding whitespace ignored) as a key; `source` names it in errors (a setting's
    /// name or a file's path).
    public init(base64: String, source: String) throws {
        guard let bytes = Data(base64Encoded: base64.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw MasterKeyError.notBase64(source: source)
        }
        guard bytes.count == Self.byteCount else {
            throw MasterKeyError.wrongLength(source: source, byteCount: bytes.count)
        }
        key = SymmetricKey(data: bytes)
    }

    public init(contentsOf file: URL) throws {
        let text: String
        do {
            text = try String(contentsOf: file, encoding: .utf8)
        } catch {
            throw MasterKeyError.unreadable(path: file.path, reason: "\(error)")
        }
        try self.init(base64: text, source: file.path)
    }

    /// The key from `value` (the setting `name`, e.g. `NUVIE_MASTER_KEY`) or from `file` (one of them,
    /// not both); when neither is set, in demo mode the one kept in `demoFile`, and otherwise an error.
    public static func resolve(value: String?, file: URL?, named name: String, demoMode: Bool, demoFile: URL) throws -> MasterKey {
        let value = value.flatMap { $0.isEmpty ? nil : $0 }
        switch (value, file) {
        case (.some, .some): throw MasterKeyError.setTwice(name: name)
        case (.some(let value), nil): return try MasterKey(base64: value, source: name)
        case (nil, .some(let file)): return try MasterKey(contentsOf: file)
        case (nil, nil):
            guard demoMode else { throw MasterKeyError.notSet(name: name) }
            return try demo(file: demoFile)
        }
    }

    /// The demo key kept in `file`: read back when the file exists, else 32 random bytes written
    /// there (base64, mode 0600 from the start, the file appearing whole or not at all).
    public static func demo(file: URL) throws -> MasterKey {
        // Read first: a key written on every start would leave a temporary file behind at each kill.
        if FileManager.default.fileExists(atPath: file.path) { return try MasterKey(contentsOf: file) }
        let generated = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }.base64EncodedString()
        if try PrivateFile.publish(Data((generated + "\n").utf8), at: file.path) {
            return try MasterKey(base64: generated, source: file.path)
        }
        return try MasterKey(contentsOf: file)
    }
}

public enum MasterKeyError: Error, Equatable, CustomStringConvertible {
    case notBase64(source: String)
    case wrongLength(source: String, byteCount: Int)
    case unreadable(path: String, reason: String)
    case notSet(name: String)
    case setTwice(name: String)

    public var description: String {
        switch self {
        case .notBase64(let source):
            "\(source) is not base64: a master key is 32 random bytes, base64 (head -c 32 /dev/urandom | base64)"
        case .wrongLength(let source, let byteCount):
            "\(source) holds \(byteCount) bytes; a master key is exactly 32 (256 bits), base64 (head -c 32 /dev/urandom | base64)"
        case .unreadable(let path, let reason):
            "cannot read the master key file \(path): \(reason)"
        case .notSet(let name):
            "\(name) is not set (nor a file for it): the key store's master key is required outside demo mode"
        case .setTwice(let name):
            "\(name) is set both as a value and as a file; set one"
        }
    }
}
