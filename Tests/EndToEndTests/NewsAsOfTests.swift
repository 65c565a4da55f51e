import Foundation
import TestSupport
import Testing

/// `news as-of` through the real `news` binary: an investor's preferences as they were, and the whole
/// API served read-only as it answered at a past position, beside the live server.
@Suite(.timeLimit(.minutes(3))) struct NewsAsOfTests {
    /// A file none of whose lines is an article fails the import (exit 1), naming each line; one
    /// that holds articles imports them (exit 0), its rejected lines named.
    @Test func anImportOfNoArticleFails() async throws {
        let directory = try TemporaryDirectory()
        let junk = directory.url.appendingPathComponent("junk.jsonl")
        try Data("not json\n{\"title\":1}\n".utf8).write(to: junk)
        let data = directory.url.appendingPathComponent("data").path
        let run = try await runProduct("news", ["import", junk.path, "--data-dir", data], environment: ["NEWS_MASTER_KEY": configuredMasterKey])
        #expect(run.status == 1 && run.output.contains("line 1:") && run.output.contains("2 lines rejected"), "\(run.output)")
    }

    @Test func asOfShowsAndServesThePastReadOnly() async throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("data")
        let live = try await NewsPreferenceWrites().serve(data)
        defer { live.stopWhenLeaving() }
        let investor = ["X-User-ID": "as-of-investor"]
        #expect(try await live.put("/v1/preferences", #"{"focus_profile":"focused","holdings":["AAPL"]}"#, headers: investor).status == 200)
        let then = try #require(try await live.get("/health").json["logHeadPosition"] as? Int)
        #expect(try await live.put("/v1/preferences", #"{"holdings":["AAPL","MSFT"]}"#, headers: investor).json["holdings_count"] as? Int == 2)

        let printed = try await runProduct("news", ["as-of", "--data-dir", data.path, "--position", "\(then)", "--user", "as-of-investor"])
        #expect(printed.status == 0 && printed.output.contains(#""holdings":[{"#) && !printed.output.contains("MSFT"), "\(printed.output)")

        let past = try await ServerProcess.start("news", outputDirectory: directory.url) { port in
            ["as-of", "--data-dir", data.path, "--position", "\(then)", "--serve", "\(port)", "--log-level", "warning"]
        }
        defer { past.stopWhenLeaving() }
        #expect(try await past.get("/health").json["logHeadPosition"] as? Int == then)
        #expect(try await past.get("/v1/feed", headers: investor).status == 200)
        // A PUT that changes nothing records nothing and answers what is stored: there, one holding.
        #expect(try await past.put("/v1/preferences", "{}", headers: investor).json["holdings_count"] as? Int == 1)
        let refused = try await past.put("/v1/preferences", #"{"holdings":["NVDA"]}"#, headers: investor)
        #expect(refused.status == 405 && refused.json["error"] as? String == "Read-only", "\(refused.status) \(refused.text)")
        #expect(try await past.get("/health").json["logHeadPosition"] as? Int == then)
        #expect(try await live.put("/v1/preferences", "{}", headers: investor).json["holdings_count"] as? Int == 2)
    }
}
