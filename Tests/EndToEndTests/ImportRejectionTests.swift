import EventLog
import Foundation
import TestSupport
import Testing

/// `nuvie import movielens` through the binary: rows that are not films, ratings or tags, or are of
/// films the catalog lacks, are reported with their file and line and not imported; `--strict`
/// refuses the directory and writes nothing.
@Suite(.timeLimit(.minutes(2))) struct ImportRejectionTests {
    @Test func badRowsAreReportedAndNotImportedAndStrictWritesNothing() async throws {
        let directory = try TemporaryDirectory()
        let dataset = directory.url.appendingPathComponent("ml")
        try FileManager.default.copyItem(at: replayFixtures.appendingPathComponent("movielens-tiny"), to: dataset)
        let ratings = dataset.appendingPathComponent("ratings.csv")
        let good = try String(contentsOf: ratings, encoding: .utf8)
        let goodLines = good.split(separator: "\n").count
        try Data((good + "1,999,4.0,964982703\n0,1,4.0,964982703\n1,2,7,964982703\n").utf8).write(to: ratings)
        let tags = dataset.appendingPathComponent("tags.csv")
        try Data((try String(contentsOf: tags, encoding: .utf8) + "2,999,ghost,1445714900\n").utf8).write(to: tags)

        let data = directory.url.appendingPathComponent("data")
        let masterKey = ["NUVIE_MASTER_KEY": Data((0..<32).map { _ in UInt8.random(in: .min ... .max) }).base64EncodedString()]
        let run = try await runNuvie(["import", "movielens", dataset.path, "--data-dir", data.path], environment: masterKey)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.contains("ratings.csv:\(goodLines + 1): film 999 is not in movies.csv"), "\(run.output)")
        #expect(run.output.contains("ratings.csv:\(goodLines + 2): user id 0"), "\(run.output)")
        #expect(run.output.contains("ratings.csv:\(goodLines + 3): rating 7"), "\(run.output)")
        #expect(run.output.contains("tags.csv:") && run.output.contains("film 999 is not in movies.csv"), "\(run.output)")
        #expect(run.output.contains("ratings: \(goodLines - 1),") && run.output.contains("rows rejected: 4"), "\(run.output)")
        let log = try EventLog(configuration: .init(directory: data.appendingPathComponent("log"), readOnly: true))
        let rated = try log.read(from: 1, limit: .max).filter { $0.type == "movie-rated" && $0.streamId.hasPrefix("rating-") }
        log.close()
        #expect(!rated.contains { $0.streamId == "rating-1-999" || $0.streamId.hasPrefix("rating-0-") })

        let strictData = directory.url.appendingPathComponent("strict")
        let strict = try await runNuvie(["import", "movielens", dataset.path, "--data-dir", strictData.path, "--strict"], environment: masterKey)
        #expect(strict.status != 0 && strict.output.contains("4 rows rejected"), "\(strict.output)")
        #expect(!FileManager.default.fileExists(atPath: strictData.path), "nothing written")
    }
}
