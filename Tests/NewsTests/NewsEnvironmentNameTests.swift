import Foundation
import NewsApp
import Testing
import TestSupport

@Test func theProductReadsNoneOfTheEnginesSettings() throws {
    var configuration = NewsConfiguration(dataDirectory: URL(fileURLWithPath: "/nonexistent"))
    #expect(try EnvironmentNameCheck.enginesNamesReadByTheProduct(prefix: "NEWS") { try configuration.apply($0) } == [])
}
