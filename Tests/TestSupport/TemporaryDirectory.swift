import Foundation

/// A directory under the system temp dir, removed when the value is deinitialised.
public final class TemporaryDirectory: Sendable {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("nuvie-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// The repository's root, and its `replay-fixtures/` folder.
public let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
public let replayFixtures = repositoryRoot.appendingPathComponent("replay-fixtures")
