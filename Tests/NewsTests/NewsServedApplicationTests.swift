import Foundation
import NewsApp
import Testing
import TestSupport

/// `buildNewsApplication`, as `news serve` runs it: its secrets, health, metrics, middleware order.
@Test func theApplicationAsServedAnswersWhatEveryProductMust() async throws {
    let directory = try TemporaryDirectory()
    var configuration = NewsConfiguration(dataDirectory: directory.url)
    configuration.port = 0
    configuration.masterKey = configuredMasterKey
    try await serve(try await buildNewsApplication(configuration: configuration)) { port in
        let problems = try await ServedApplicationCheck.problems(port: port, errorKeys: ["error", "details"])
        #expect(problems == [])
    }
}
