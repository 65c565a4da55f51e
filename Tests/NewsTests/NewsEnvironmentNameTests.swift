import Foundation
import NewsApp
import Testing
import TestSupport

@Test func theSettingsStartUpAcceptAreTheOnesItReads() throws {
    var configuration = NewsConfiguration(dataDirectory: URL(fileURLWithPath: "/nonexistent"))
    #expect(try EnvironmentNameCheck.problems(prefix: "NEWS", declared: NewsConfiguration.environmentNames) { try configuration.apply($0) } == [])
}
