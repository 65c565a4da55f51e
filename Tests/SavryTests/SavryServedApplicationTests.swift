import Foundation
import SavryApp
import Testing
import TestSupport

/// `buildSavryApplication`, as `savry serve` runs it: its secrets, health, metrics, middleware order.
@Test func theApplicationAsServedAnswersWhatEveryProductMust() async throws {
    let directory = try TemporaryDirectory()
    var configuration = SavryConfiguration(dataDirectory: directory.url)
    configuration.port = 0
    configuration.demoMode = true
    try await serve(try await buildSavryApplication(configuration: configuration)) { port in
        let problems = try await ServedApplicationCheck.problems(port: port, errorKeys: ["message"])
        #expect(problems == [])
    }
}
