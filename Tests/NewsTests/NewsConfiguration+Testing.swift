import Foundation
import NewsApp
import ProductHosting

extension NewsConfiguration {
    /// A server on an ephemeral port over `dataDirectory` (`ServingSettings.testing`), without the
    /// demo's articles.
    static func testing(dataDirectory: URL) -> NewsConfiguration {
        var configuration = NewsConfiguration(dataDirectory: dataDirectory)
        configuration.serving = .testing(dataDirectory: dataDirectory)
        configuration.demoMode = false
        return configuration
    }
}
