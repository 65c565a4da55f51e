import Foundation

/// The address ranges where this process maps one file, read from `/proc/self/maps` by the file's
/// device and inode. LMDB tells the map's address only for `MDB_FIXEDMAP`.
enum MappedPages {
    static func regions(of path: String) -> [(start: UnsafeMutableRawPointer, length: Int)] {
        var info = stat()
        // Read to the end: the file reports no size, and a long one takes more than one read.
        guard stat(path, &info) == 0, let handle = FileHandle(forReadingAtPath: "/proc/self/maps"),
              let contents = try? handle.readToEnd()
        else { return [] }
        try? handle.close()
        let maps = String(decoding: contents, as: UTF8.self)
        let device = String(format: "%02x:%02x", major(info.st_dev), minor(info.st_dev))
        let inode = String(info.st_ino)
        return maps.split(separator: "\n").compactMap { line in
            // start-end perms offset major:minor inode path
            let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
            guard fields.count >= 5, fields[3] == device, fields[4] == inode else { return nil }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16), end > start,
                  let pointer = UnsafeMutableRawPointer(bitPattern: start)
            else { return nil }
            return (pointer, Int(end - start))
        }
    }

    private static func major(_ device: UInt) -> UInt { ((device >> 32) & 0xffff_f000) | ((device >> 8) & 0xfff) }
    private static func minor(_ device: UInt) -> UInt { ((device >> 12) & 0xffff_ff00) | (device & 0xff) }
}
