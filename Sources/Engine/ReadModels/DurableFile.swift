import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A small file replaced whole and durably: written beside it as `<name>.tmp` and synced, renamed
/// over it, then its directory synced. A crash leaves the old contents or the new, never an empty or
/// partial file.
public enum DurableFile {
    public static func replace(_ file: URL, with contents: Data) throws {
        let temporary = file.appendingPathExtension("tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: temporary.path])
        }
        let handle = try FileHandle(forWritingTo: temporary)
        defer { try? handle.close() }
        try handle.write(contentsOf: contents)
        try handle.synchronize()
        guard rename(temporary.path, file.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        // The file is replaced: a failed sync of the directory must not report otherwise. At worst a
        // power cut undoes the rename, and the old contents are read.
        try? syncParent(of: file)
    }

    /// Syncs every file and directory under `root`, and `root` itself, so that a copy reported as made
    /// (a backup, a restored log) survives a power cut: a plain copy sits in the page cache.
    public static func syncTree(_ root: URL) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory) else { return }
        if isDirectory.boolValue {
            for name in try FileManager.default.contentsOfDirectory(atPath: root.path) { try syncTree(root.appendingPathComponent(name)) }
        }
        try sync(root, isDirectory: isDirectory.boolValue)
    }

    /// Syncs the directory that holds `item`, so that its name there survives a power cut.
    public static func syncParent(of item: URL) throws {
        try sync(item.deletingLastPathComponent(), isDirectory: true)
    }

    private static func sync(_ item: URL, isDirectory: Bool) throws {
        let descriptor = open(item.path, O_RDONLY | O_CLOEXEC | (isDirectory ? O_DIRECTORY : 0))
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }
}
