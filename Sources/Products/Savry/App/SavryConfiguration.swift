import AppleSignIn
import Foundation
import HTTPServing
import ProductHosting

/// Everything Savry's server needs to start, as plain values. The `savry` executable builds it from
/// flags and the `SAVRY_*` environment.
public struct SavryConfiguration: PastStateConfiguration {
    public var serving: ServingSettings
    public var jwtSecret: String?
    public var appleBundleId: String?
    public var appleKeySource: AppleIdentityVerifier.KeySource?
    /// Per cook (per IP address on sign-in); nil turns rate limiting off.
    public var rateLimit: RateLimit? = RateLimit.perPerson

    public init(dataDirectory: URL) {
        serving = ServingSettings(dataDirectory: dataDirectory, port: 3000)
    }

    /// The rest of the configuration from the environment, every value checked (`InvalidSetting`).
    public mutating func apply(_ settings: EnvironmentSettings) throws {
        jwtSecret = try settings.secret("SAVRY_JWT_SECRET")
        appleBundleId = settings.text("SAVRY_APPLE_BUNDLE_ID")
        appleKeySource = try settings.appleKeySource("SAVRY_APPLE_JWKS")
        rateLimit = try RateLimit(settings, prefix: "SAVRY", default: .perPerson)
    }
}
