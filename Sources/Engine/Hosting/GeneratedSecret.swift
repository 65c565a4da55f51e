import Foundation
import PersonalData

/// Secrets a server needs: a configured one checked for strength, or in demo mode one generated
/// once and kept in the data directory.
public enum GeneratedSecret {
    public struct TooWeak: Error, CustomStringConvertible {
        public var name: String
        public var description: String { "\(name) must be at least 32 bytes" }
    }

    /// `configured` when set (at least 32 bytes), else in demo mode the one kept in `file`
    /// (generated on first use), else nil.
    public static func resolve(_ configured: String?, named name: String, demoMode: Bool, file: URL) throws -> String? {
        if let configured, !configured.isEmpty {
            guard configured.utf8.count >= 32 else { throw TooWeak(name: name) }
            return configured
        }
        return demoMode ? try readOrCreate(file, named: name) : nil
    }

    /// 48 random bytes, base64, written once and read back on later starts: created with mode 0600,
    /// never readable by another user for a moment. A kept file too short to be a secret (emptied by
    /// hand, say) is refused, not served as a weak one.
    public static func readOrCreate(_ file: URL, named name: String) throws -> String {
        if FileManager.default.fileExists(atPath: file.path) { return try kept(file, named: name) }
        var generator = SystemRandomNumberGenerator()
        let secret = Data((0..<48).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64EncodedString()
        // False when another process made it first.
        guard try PrivateFile.publish(Data(secret.utf8), at: file.path) else { return try kept(file, named: name) }
        return secret
    }

    private static func kept(_ file: URL, named name: String) throws -> String {
        let secret = try String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        guard secret.utf8.count >= 32 else { throw TooWeak(name: "\(name) kept in \(file.path)") }
        return secret
    }
}
