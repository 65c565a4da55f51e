import Foundation
import ProductHosting

/// Nuvie's secrets: configured (at least 32 bytes), or in demo mode generated once into the data
/// directory (`GeneratedSecret`; for a past state, the live one's when it has one).
enum Secrets {
    /// The JWT secret; required outside demo mode.
    static func jwtSecret(_ configuration: NuvieConfiguration) throws -> String {
        guard let secret = try resolve(configuration.jwtSecret, "NUVIE_JWT_SECRET", "jwt-secret", configuration) else {
            throw ConfigurationError.missingJWTSecret
        }
        return secret
    }

    /// Shared with the AI service; without one `/ai/…` is off.
    static func internalToken(_ configuration: NuvieConfiguration) throws -> String? {
        try resolve(configuration.internalToken, "NUVIE_INTERNAL_TOKEN", "internal-token", configuration)
    }

    private static func resolve(_ configured: String?, _ name: String, _ file: String, _ configuration: NuvieConfiguration) throws -> String? {
        try GeneratedSecret.resolve(
            configured, named: name, demoMode: configuration.demoMode, file: configuration.generatedSecretFile(file)
        )
    }
}
