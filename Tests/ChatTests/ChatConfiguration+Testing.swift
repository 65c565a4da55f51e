import ChatApp
import Foundation
import ProductHosting

extension ChatConfiguration {
    /// A server on an ephemeral port over `dataDirectory` (`ServingSettings.testing`), without the
    /// demo's accounts and with no rate limit.
    static func testing(dataDirectory: URL) -> ChatConfiguration {
        var configuration = ChatConfiguration(dataDirectory: dataDirectory)
        configuration.serving = .testing(dataDirectory: dataDirectory)
        configuration.demoMode = false
        configuration.rateLimit = nil
        return configuration
    }
}
