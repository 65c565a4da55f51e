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
        let directory = open(file.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { return }
        defer { close(directory) }
        fsync(directory)
    }
}
