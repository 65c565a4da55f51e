import Foundation
import ProductHosting
import TestSupport
import Testing

/// Whether `serve` runs a demo when neither `--demo` nor `<PRODUCT>_DEMO` says: a new directory is
/// one, unless it is a deployment's (a master key configured) or a new node of a shared log.
@Suite struct DemoModeResolutionTests {
    @Test func aNewDirectoryIsADemoUnlessAMasterKeyIsConfigured() throws {
        let demo = DataDirectory(try TemporaryDirectory().url.appendingPathComponent("data"))
        #expect(try demo.resolveDemoMode(flag: nil, environment: nil))
        #expect(FileManager.default.fileExists(atPath: demo.demoMarker.path))
        #expect(try demo.resolveDemoMode(flag: nil, environment: nil, givenMasterKey: true), "a directory made a demo stays one")

        let deployment = DataDirectory(try TemporaryDirectory().url.appendingPathComponent("data"))
        #expect(try !deployment.resolveDemoMode(flag: nil, environment: nil, givenMasterKey: true))
        #expect(!FileManager.default.fileExists(atPath: deployment.demoMarker.path))
        #expect(try !deployment.resolveDemoMode(flag: nil, environment: nil, joiningSharedLog: true))
        #expect(try deployment.resolveDemoMode(flag: nil, environment: true, givenMasterKey: true), "asked for, it is one")
    }
}
