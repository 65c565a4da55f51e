import Foundation
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

    private struct FileKey: Hashable {
        var device: UInt
        var inode: UInt
    }

    private static let generation = Atomic<UInt64>(0)
    private static let latest = Mutex<Snapshot?>(nil)
    static let maximumAge = Duration.seconds(1)

    /// An environment of this process mapped, grew or closed its map: parses before now are stale.
    static func changed() {
        generation.add(1, ordering: .sequentiallyConsistent)
    }

    static func regions(of path: String) -> [Region] {
        var info = stat()
        guard stat(path, &info) == 0 else { return [] }
        let key = FileKey(device: UInt(info.st_dev), inode: UInt(info.st_ino))
        return latest.withLock { latest in
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
        for line in contents.split(separator: UInt8(ascii: "\n")) {
            let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count >= 5, let inode = number(fields[4], radix: 10), inode != 0 else { continue }
            let bounds = fields[0].split(separator: UInt8(ascii: "-")), device = fields[3].split(separator: UInt8(ascii: ":"))
            guard bounds.count == 2, device.count == 2, let start = number(bounds[0], radix: 16), let end = number(bounds[1], radix: 16), end > start,
                  let major = number(device[0], radix: 16), let minor = number(device[1], radix: 16)
            else { continue }
            regions[FileKey(device: makedev(major, minor), inode: inode), default: []].append(Region(start: start, length: Int(end - start)))
        }
        return regions
    }

    private static func number(_ digits: Data.SubSequence, radix: UInt) -> UInt? {
        var value: UInt = 0
        for byte in digits {
            let digit: UInt
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt(byte - UInt8(ascii: "a") + 10)
            default: return nil
            }
            guard digit < radix else { return nil }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: radix)
            guard !overflow else { return nil }
            value = shifted + digit
        }
        return digits.isEmpty ? nil : value
    }

    /// `makedev` as glibc encodes a device number (the inverse of `major`/`minor`).
    private static func makedev(_ major: UInt, _ minor: UInt) -> UInt {
        ((major & 0xfffff000) << 32) | ((major & 0xfff) << 8) | ((minor & 0xffffff00) << 12) | (minor & 0xff)
    }
}
