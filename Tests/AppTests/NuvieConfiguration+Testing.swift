import Foundation
import NuvieApp
import ProductHosting

extension NuvieConfiguration {
    /// A demo-mode server on an ephemeral port over `dataDirectory` (`ServingSettings.testing`), with no
    /// dataset to import and no rate limit.
    static func testing(dataDirectory: URL) -> NuvieConfiguration {
        var configuration = NuvieConfiguration(dataDirectory: dataDirectory)
        configuration.serving = .testing(dataDirectory: dataDirectory)
        configuration.jwtSecret = "test-secret-test-secret-test-secret"
        configuration.rateLimit = nil
        return configuration
    }
}
