import Foundation
import TestSupport
import Testing
@testable import EventLog

/// A fold reads the log through LMDB's map, and the pages it read stay mapped; releasing them takes
/// them out of the process's resident memory and changes nothing a later read sees.
@Suite(.timeLimit(.minutes(3))) struct MappedPagesTests {
    @Test func releasedPagesLeaveTheResidentSetAndReadBackTheSame() async throws {
        let dir = try TemporaryDirectory()
        let log = try EventLog(configuration: .init(directory: dir.url.appendingPathComponent("log"), initialMapSize: 64 << 20))
        defer { log.close() }
        let payload = Data(String(repeating: "x", count: 2_000).utf8)
        for batch in 0..<20 {
            let events = (0..<100).map { _ in NewEvent(id: UUID(), type: "thing-happened", actorUserId: nil, userIds: [], payload: payload) }
            _ = try await log.append(to: "stream-\(batch)", expectedVersion: .any, events: events)
        }
        let file = dir.url.appendingPathComponent("log/data.mdb").path
        let before = try log.read(from: 1, limit: 2_000)
        #expect(before.count == 2_000)
        #expect(try residentKilobytes(of: file) > 1_000)

        log.releaseMappedPages()
        #expect(try residentKilobytes(of: file) == 0)
        let after = try log.read(from: 1, limit: 2_000)
        #expect(after.map(\.id) == before.map(\.id) && after.allSatisfy { $0.payload == payload })
    }

    /// The `Rss` of this process's mappings of `path`, from `/proc/self/smaps`.
    private func residentKilobytes(of path: String) throws -> Int {
        let regions = Set(MappedPages.regions(of: path).map(\.start))
        var total = 0, inRegion = false
        // Read to the end: the file reports no size, and it is longer than one read.
        let smaps = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/self/smaps")).readToEnd() ?? Data()
        for line in String(decoding: smaps, as: UTF8.self).split(separator: "\n") {
            if let dash = line.firstIndex(of: "-"), let start = UInt(line[..<dash], radix: 16), line.contains(" ") {
                inRegion = regions.contains(start)
            } else if inRegion, line.hasPrefix("Rss:") {
                total += Int(line.split(separator: " ")[1]) ?? 0
            }
        }
        return total
    }
}
