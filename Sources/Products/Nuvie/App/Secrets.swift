import Foundation
import ProductHosting

enum Secrets {
    /// The configured JWT secret; in demo mode, one generated once and kept in the data directory.
    static func jwtSecret(_ configuration: AppConfiguration) throws -> String {
        if let secret = configuration.jwtSecret, !secret.isEmpty {
            guard secret.utf8.count >= 32 else { throw ConfigurationError.weakJWTSecret }
            return secret
        }
        guard configuration.demoMode else { throw ConfigurationError.missingJWTSecret }
        return try GeneratedSecret.readOrCreate(configuration.dataDirectory.appendingPathComponent("jwt-secret"))
    }

    /// The configured admin token; in demo mode, one generated into `<data-dir>/admin-token`;
    /// otherwise none, and the admin endpoints are off.
    static func adminToken(_ configuration: AppConfiguration) throws -> String? {
        if let token = configuration.adminToken, !token.isEmpty {
            guard token.utf8.count >= 32 else { throw ConfigurationError.weakAdminToken }
            return token
        }
        guard configuration.demoMode else { return nil }
        return try GeneratedSecret.readOrCreate(configuration.dataDirectory.appendingPathComponent("admin-token"))
    }

    /// The token shared with the AI service; in demo mode, one generated into `<data-dir>/internal-token`;
    /// otherwise none, and `/ai/…` is off.
    static func internalToken(_ configuration: AppConfiguration) throws -> String? {
        if let token = configuration.internalToken, !token.isEmpty {
            guard token.utf8.count >= 32 else { throw ConfigurationError.weakInternalToken }
            return token
        }
        guard configuration.demoMode else { return nil }
        return try GeneratedSecret.readOrCreate(configuration.dataDirectory.appendingPathComponent("internal-token"))
    }
}
