import Foundation
import NIOConcurrencyHelpers
import Synchronization

/// The address ranges where this process maps one file, from `/proc/self/maps` by the file's device
/// and inode. LMDB tells the map's address only for `MDB_FIXEDMAP`.
///
/// The file is read and parsed once for every environment of the process, not once each: a process
/// with many logs open (a test run holds ~200) re-read and split it hundreds of times a second and
/// kept every cooperative thread busy. A parse serves until any environment of the process maps,
/// grows or closes (`changed()`), and for at most a second; a caller holds its own environment's
/// lock, so its own ranges cannot move while it uses them.
enum MappedPages {
    struct Region: Sendable {
        var start: UInt
        var length: Int
    }

    private struct Snapshot {
        var generation: UInt64
        var taken: ContinuousClock.Instant
        var regions: [FileKey: [Region]]
    }

    /// `major:minor inode`, in hex and decimal, as `/proc/self/maps` writes a file.
    private typealias FileKey = String

    private static let generation = Atomic<UInt64>(0)
    private static let latest = NIOLockedValueBox<Snapshot?>(nil)
    static let maximumAge = Duration.seconds(1)

    /// An environment of this process mapped, grew or closed its map: parses before now are stale.
    static func changed() {
        generation.add(1, ordering: .sequentiallyConsistent)
    }

    static func regions(of path: String) -> [Region] {
        var info = stat()
        guard stat(path, &info) == 0 else { return [] }
        let key = String(format: "%02x:%02x", major(info.st_dev), minor(info.st_dev)) + " \(info.st_ino)"
        return latest.withLockedValue { latest in
            let now = ContinuousClock.now, current = generation.load(ordering: .sequentiallyConsistent)
            if let snapshot = latest, snapshot.generation == current, now - snapshot.taken < maximumAge {
                return snapshot.regions[key] ?? []
            }
            let snapshot = Snapshot(generation: current, taken: now, regions: parse())
            latest = snapshot
            return snapshot.regions[key] ?? []
        }
    }

    /// Every file-backed range of `/proc/self/maps`, by file: `start-end perms offset major:minor inode path`.
    private static func parse() -> [FileKey: [Region]] {
        // Read to the end: the file reports no size, and a long one takes more than one read.
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/maps"), let contents = try? handle.readToEnd() else { return [:] }
        try? handle.close()
        var regions: [FileKey: [Region]] = [:]
        for line in String(decoding: contents, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count >= 5, fields[4] != "0" else { continue }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16), end > start else { continue }
            regions["\(fields[3]) \(fields[4])", default: []].append(Region(start: start, length: Int(end - start)))
        }
        return regions
    }

    private static func major(_ device: UInt) -> UInt { ((device >> 32) & 0xffff_f000) | ((device >> 8) & 0xfff) }
    private static func minor(_ device: UInt) -> UInt { ((device >> 12) & 0xffff_ff00) | (device & 0xff) }
}
