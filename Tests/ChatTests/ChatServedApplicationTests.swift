import Foundation
import ChatApp
import Testing
import TestSupport

/// `buildChatApplication`, as `chat serve` runs it: its secrets, health, metrics, middleware order.
@Test func theApplicationAsServedAnswersWhatEveryProductMust() async throws {
    let directory = try TemporaryDirectory()
    var configuration = ChatConfiguration(dataDirectory: directory.url)
    configuration.port = 0
    configuration.masterKey = configuredMasterKey
    configuration.passwordIterations = 100_000
    try await serve(try await buildChatApplication(configuration: configuration)) { port in
        let problems = try await ServedApplicationCheck.problems(port: port, errorKeys: ["error", "message", "detail"])
        #expect(problems == [])
    }
}
