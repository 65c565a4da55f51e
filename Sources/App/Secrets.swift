import Foundation

enum Secrets {
    /// The configured JWT secret; in demo mode, one generated once and kept in the data directory.
    static func jwtSecret(_ configuration: AppConfiguration) throws -> String {
        if let secret = configuration.jwtSecret, !secret.isEmpty {
            guard secret.utf8.count >= 32 else { throw ConfigurationError.weakJWTSecret }
            return secret
        }
        guard configuration.demoMode else { throw ConfigurationError.missingJWTSecret }
        let file = configuration.dataDirectory.appendingPathComponent("jwt-secret")
        if let existing = try? String(contentsOf: file, encoding: .utf8), !existing.isEmpty { return existing }
        var bytes = [UInt8](repeating: 0, count: 48)
        var generator = SystemRandomNumberGenerator()
        for i in bytes.indices { bytes[i] = generator.next() }
        let secret = Data(bytes).base64EncodedString()
        try Data(secret.utf8).write(to: file, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        return secret
    }
}
