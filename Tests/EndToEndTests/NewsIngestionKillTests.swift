import Foundation
import TestSupport
import Testing

/// `news import` killed with SIGKILL part-way: every batch it said was ingested is in the log, the
/// next import records exactly the rest (each URL once), and the read models fold to what the log holds.
@Suite(.timeLimit(.minutes(5))) struct NewsIngestionKillTests {
    static let articleCount = 3_000

    @Test func anImportKilledPartWayLosesNoAcknowledgedArticleAndTheNextOneRecordsTheRest() async throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("data")
        let file = directory.url.appendingPathComponent("articles.jsonl")
        try Self.articles(Self.articleCount).write(to: file)
        let arguments = ["import", file.path, "--data-dir", data.path, "--log-level", "info"]
        let environment = ["NEWS_MASTER_KEY": configuredMasterKey]

        // The kill must land after the first acknowledged batch and before the last; when the import
        // finishes first (a loaded machine), the scenario starts over.
        var said = ""
        var acknowledged = 0
        for _ in 1...3 {
            try? FileManager.default.removeItem(at: data)
            let importing = try ServerProcess.launch("news", outputDirectory: directory.url, environment: environment) { _ in arguments }
            await importing.kill9(whenOutputContains: " ingesting\n")
            said = importing.everythingSaid()
            acknowledged = Self.acknowledgedArticles(said)
            if acknowledged < Self.articleCount { break }
        }
        try #require(acknowledged > 0 && acknowledged < Self.articleCount, "the kill did not land inside the import:\n\(said.suffix(2_000))")

        let resumed = try await runProduct("news", arguments, logLevel: false, environment: environment)
        #expect(resumed.status == 0, "\(resumed.output.suffix(2_000))")
        let (recorded, held) = try #require(Self.summary(resumed.output), "\(resumed.output.suffix(2_000))")
        #expect(held >= acknowledged, "\(acknowledged) acknowledged before the kill, \(held) found held")
        #expect(recorded + held == Self.articleCount)
        #expect(try DemoImportTests.logHead(data) == UInt64(Self.articleCount), "each article once in the log")

        let again = try await runProduct("news", arguments, logLevel: false, environment: environment)
        #expect(Self.summary(again.output).map { [$0.recorded, $0.held] } == [0, Self.articleCount], "\(again.output.suffix(2_000))")
        let verify = try await runProduct("news", ["verify", "--data-dir", data.path], environment: environment)
        #expect(verify.status == 0, "\(verify.output.suffix(2_000))")
    }

    /// `count` articles, each its own URL, one JSON object a line, half an hour apart (a wire's
    /// pace: the read models compare each with the few hundred of the days around it).
    static func articles(_ count: Int) -> Data {
        let companies = ["Apple", "Nvidia", "Exxon", "Pfizer", "Boeing", "Visa", "Walmart", "Intel", "Ford", "Netflix", "Disney", "Oracle"]
        let events = ["raises guidance", "misses estimates", "announces buyback", "faces probe", "cuts jobs", "wins contract", "delays launch"]
        let lines = (0..<count).map { index in
            let company = companies[index % companies.count], event = events[(index / companies.count) % events.count]
            return #"{"url":"https://wire.example/story-\#(index)","title":"\#(company) \#(event) (\#(index))","source":"Wire (synthetic)","published_at":\#(1_767_225_600 + index * 1_800),"description":"\#(company) \#(event), story \#(index) of the synthetic wire.","body":null}"#
        }
        return Data(lines.joined(separator: "\n").utf8)
    }

    /// The most a progress line (`articles=K/N … ingesting`) said was ingested: each is logged after
    /// its batch's append returned.
    static func acknowledgedArticles(_ output: String) -> Int {
        output.split(separator: "\n").filter { $0.hasSuffix(" ingesting") }.compactMap { line in
            line.firstRange(of: "articles=").flatMap { Int(line[$0.upperBound...].prefix { $0.isNumber }) }
        }.max() ?? 0
    }

    /// "ingested R articles; H already held; …".
    static func summary(_ output: String) -> (recorded: Int, held: Int)? {
        guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("ingested ") }) else { return nil }
        let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        return numbers.count >= 2 ? (numbers[0], numbers[1]) : nil
    }
}
