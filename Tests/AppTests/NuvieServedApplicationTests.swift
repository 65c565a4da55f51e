import Foundation
import NuvieApp
import Testing
import TestSupport

/// `buildNuvieApplication`, as `nuvie serve` runs it: its secrets, health, metrics, middleware order.
@Test func theApplicationAsServedAnswersWhatEveryProductMust() async throws {
    let directory = try TemporaryDirectory()
    var configuration = NuvieConfiguration(dataDirectory: directory.url)
    configuration.port = 0
    configuration.masterKey = configuredMasterKey
    configuration.jwtSecret = "nuvie-served-test-secret-nuvie-served"
    try await serve(try await buildNuvieApplication(configuration: configuration)) { port in
        let problems = try await ServedApplicationCheck.problems(port: port, errorKeys: ["error"])
        #expect(problems == [])
    }
}
