import Foundation

/// The read-model files of a data directory. A rebuild writes a new generation next to the live one
/// and then points `CURRENT` at it, so the swap is one atomic rename and a crash leaves either the
/// old or the new generation in force, never half of one. The old generation is deleted once its
/// last read ends, or on the next open after a crash.
public struct ReadModelFiles: Sendable {
    public let directory: URL
    static let pointerName = "CURRENT"
    static let defaultName = "read.sqlite"

    public init(directory: URL) {
        self.directory = directory
    }

    /// The file the read models are served from.
    public var currentPath: String {
        let pointer = directory.appendingPathComponent(Self.pointerName)
        let name = (try? String(contentsOf: pointer, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        return directory.appendingPathComponent(name.flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultName).path
    }

    /// A fresh file name for a rebuild.
    func nextPath() -> String {
        directory.appendingPathComponent("read-\(Int(Date().timeIntervalSince1970))-\(UUID().uuidString.prefix(8).lowercased()).sqlite").path
    }

    /// Makes `path` (in this directory) the current generation, durably (`DurableFile`): a power cut
    /// cannot leave an empty pointer. One that undoes the rename leaves the old generation, whose
    /// deletion the journal orders after it, to fold on from its own checkpoint.
    func promote(_ path: String) throws {
        try DurableFile.replace(directory.appendingPathComponent(Self.pointerName), with: Data((URL(fileURLWithPath: path).lastPathComponent + "\n").utf8))
    }

    /// Deletes the generation at `path`, with its `-wal` and `-shm` files.
    func remove(generationAt path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// Throws when `CURRENT` is there but cannot be read (an I/O error, a directory in its place): which
    /// generation is current is then unknown, and taking the default would delete the real one as
    /// stale and fold the whole log again into a new file.
    func requireReadablePointer() throws {
        let pointer = directory.appendingPathComponent(Self.pointerName)
        guard FileManager.default.fileExists(atPath: pointer.path) else { return }
        _ = try String(contentsOf: pointer, encoding: .utf8)
    }

    /// Deletes every generation but the current one, with its `-wal` and `-shm` files. Only safe
    /// before anything opens them: call it before opening the read database.
    func removeStaleGenerations() {
        let current = URL(fileURLWithPath: currentPath).lastPathComponent
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where name.hasPrefix("read") && !name.hasPrefix(current) && name != Self.pointerName {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }
}
