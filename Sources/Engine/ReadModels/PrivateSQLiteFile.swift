import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A SQLite file of personal data in clear (read models, a recommendation cache, a past state kept
/// with `as-of --output`): readable by the server's user and group only, as the log and key store
/// are, whatever the umask of the command that made it. SQLite gives its `-wal` and `-shm` files the
/// database file's mode.
public enum PrivateSQLiteFile {
    public static let mode: mode_t = 0o640

    /// Creates the file at `path` with `mode` when there is none, and takes from `mode` what an
    /// existing one and its companions allow beyond it.
    public static func prepare(_ path: String) {
        let file = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, mode)
        if file >= 0 { close(file) }
        for companion in [path, path + "-wal", path + "-shm"] {
            var status = stat()
            if stat(companion, &status) == 0, status.st_mode & ~mode & 0o777 != 0 { chmod(companion, status.st_mode & mode & 0o777) }
        }
    }
}
