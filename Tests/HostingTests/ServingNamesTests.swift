import Foundation
import HTTPServing
import ProductHosting
import TestSupport
import Testing

/// The names the engine keeps for itself (`EnvironmentSettings.servingNames`, which no product may
/// read and which start-up never calls misspelt) are the ones it reads: what `applyEverySetting`
/// asks for, and the six the executable reads before it (`ProductOptions`, `ServeCommand`).
@Test func theEngineKeepsForItselfExactlyTheNamesItReads() throws {
    let settings = EnvironmentSettings([:])
    var configuration = TallyConfiguration(dataDirectory: URL(fileURLWithPath: "/nonexistent"))
    try configuration.applyEverySetting(settings, prefix: "TALLY")
    let readByTheExecutable: Set<String> = ["TALLY_DATA_DIR", "TALLY_LOG_LEVEL", "TALLY_LOG_FORMAT", "TALLY_HOST", "TALLY_PORT", "TALLY_DEMO"]
    #expect(settings.namesRead.union(readByTheExecutable).sorted() == EnvironmentSettings.servingNames(prefix: "TALLY").sorted())
}
