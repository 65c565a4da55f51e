import Foundation
import SavryApp
import Testing
import TestSupport

@Test func theProductReadsNoneOfTheEnginesSettings() throws {
    var configuration = SavryConfiguration(dataDirectory: URL(fileURLWithPath: "/nonexistent"))
    #expect(try EnvironmentNameCheck.enginesNamesReadByTheProduct(prefix: "SAVRY") { try configuration.apply($0) } == [])
}
