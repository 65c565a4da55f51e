import Foundation
import PersonalData
import TestSupport
import Testing

@Suite struct MasterKeyTests {
    @Test func aKeyIsExactly32BytesOfBase64() throws {
        let key = Data(repeating: 7, count: 32).base64EncodedString()
        _ = try MasterKey(base64: " \(key)\n", source: "NUVIE_MASTER_KEY")
        #expect(throws: MasterKeyError.wrongLength(source: "NUVIE_MASTER_KEY", byteCount: 16)) {
            try MasterKey(base64: Data(repeating: 7, count: 16).base64EncodedString(), source: "NUVIE_MASTER_KEY")
        }
        #expect(throws: MasterKeyError.notBase64(source: "NUVIE_MASTER_KEY")) {
            try MasterKey(base64: "not a key!", source: "NUVIE_MASTER_KEY")
        }
        let message = MasterKeyError.wrongLength(source: "NUVIE_MASTER_KEY", byteCount: 16).description
        #expect(message.contains("16 bytes") && message.contains("exactly 32"))
    }

    @Test func resolvingNeverGeneratesAKeyOutsideDemoMode() throws {
        let directory = try TemporaryDirectory()
        let demoFile = directory.url.appendingPathComponent("master.key")
        #expect(throws: MasterKeyError.notSet(name: "NUVIE_MASTER_KEY")) {
            try MasterKey.resolve(value: "", file: nil, named: "NUVIE_MASTER_KEY", demoMode: false, demoFile: demoFile)
        }
        #expect(!FileManager.default.fileExists(atPath: demoFile.path))
        #expect(throws: MasterKeyError.setTwice(name: "NUVIE_MASTER_KEY")) {
            try MasterKey.resolve(value: "x", file: demoFile, named: "NUVIE_MASTER_KEY", demoMode: true, demoFile: demoFile)
        }
    }

    @Test func theDemoKeyIsGeneratedOnceIntoAPrivateFileAndReadBack() throws {
        let directory = try TemporaryDirectory()
        let demoFile = directory.url.appendingPathComponent("master.key")
        let generated = try MasterKey.resolve(value: nil, file: nil, named: "NUVIE_MASTER_KEY", demoMode: true, demoFile: demoFile)
        let attributes = try FileManager.default.attributesOfItem(atPath: demoFile.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["master.key"])

        // The same key again, from the demo file and as the configured file: a store wrapped under one opens under the other.
        let store = try KeyStore(path: keyStorePath(in: directory), masterKey: generated)
        try store.close()
        _ = try KeyStore(path: keyStorePath(in: directory), masterKey: MasterKey.demo(file: demoFile))
        _ = try KeyStore(path: keyStorePath(in: directory), masterKey: MasterKey.resolve(value: nil, file: demoFile, named: "K", demoMode: false, demoFile: demoFile))
    }

    /// A start killed while it wrote a key it did not need would leave the temporary file behind
    /// (the kill cycles found ten in one data directory): an existing key is read, nothing written.
    @Test func anExistingDemoKeyIsReadWithoutWritingBesideIt() throws {
        let directory = try TemporaryDirectory()
        let demoFile = directory.url.appendingPathComponent("master.key")
        _ = try MasterKey.demo(file: demoFile)
        let before = try Self.modified(directory.url)
        Thread.sleep(forTimeInterval: 0.02)
        _ = try MasterKey.demo(file: demoFile)
        #expect(try Self.modified(directory.url) == before, "a file was created or removed beside the key")
    }

    /// The directory's modification time, to the nanosecond.
    static func modified(_ directory: URL) throws -> [Int] {
        var status = stat()
        guard stat(directory.path, &status) == 0 else { throw CocoaError(.fileReadUnknown) }
        return [status.st_mtim.tv_sec, status.st_mtim.tv_nsec]
    }

    @Test func aMissingFileIsAClearError() throws {
        let directory = try TemporaryDirectory()
        let error = #expect(throws: MasterKeyError.self) { try MasterKey(contentsOf: directory.url.appendingPathComponent("absent.key")) }
        #expect(error?.description.contains("absent.key") == true)
    }
}
