import Foundation
import ProductHosting
import SavryApp

extension SavryConfiguration {
    /// A demo-mode server on an ephemeral port, with a fixed JWT secret and no rate limit.
    static func testing(dataDirectory: URL) -> SavryConfiguration {
        var configuration = SavryConfiguration(dataDirectory: dataDirectory)
        configuration.serving = .testing(dataDirectory: dataDirectory)
        configuration.jwtSecret = "savry-test-secret-savry-test-secret"
        configuration.rateLimit = nil
        return configuration
    }
}
