import Foundation
import SavryApp
import Testing
import TestSupport

@Test func theSettingsStartUpAcceptAreTheOnesItReads() throws {
    var configuration = SavryConfiguration(dataDirectory: URL(fileURLWithPath: "/nonexistent"))
    #expect(try EnvironmentNameCheck.problems(prefix: "SAVRY", declared: SavryConfiguration.environmentNames) { try configuration.apply($0) } == [])
}
