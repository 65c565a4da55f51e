import Foundation
import ChatApp
import Testing
import TestSupport

@Test func theSettingsStartUpAcceptAreTheOnesItReads() throws {
    var configuration = ChatConfiguration(dataDirectory: URL(fileURLWithPath: "/nonexistent"))
    #expect(try EnvironmentNameCheck.problems(prefix: "CHAT", declared: ChatConfiguration.environmentNames) { try configuration.apply($0) } == [])
}
