import Foundation
import ChatApp
import Testing
import TestSupport

@Test func theProductReadsNoneOfTheEnginesSettings() throws {
    var configuration = ChatConfiguration(dataDirectory: URL(fileURLWithPath: "/nonexistent"))
    #expect(try EnvironmentNameCheck.enginesNamesReadByTheProduct(prefix: "CHAT") { try configuration.apply($0) } == [])
}
