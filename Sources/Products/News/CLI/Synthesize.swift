import ArgumentParser
import Foundation
import NewsDomain

/// `news synthesize --stories N --days D > FILE.jsonl`: the demo's generator at any size, as lines
/// `news import` reads (the bulk fold figures in BENCHMARKS.md).
struct Synthesize: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a synthetic article set as JSON lines for `news import`: the demo's events and outlets, at any size."
    )

    @Option(help: "The generator's seed (default: the demo's).")
    var seed: UInt64 = SyntheticNews.defaultSeed

    @Option(help: "How many events; each is reported by one to six outlets, about 3.3 articles an event.")
    var stories = 80

    @Option(help: "The days they spread over, from 2025-12-03.")
    var days = SyntheticNews.days

    @Option(help: "Days after 2025-12-03 the set starts: 365 follows a set of 365 days, as a feed's new articles would.")
    var startDay = 0

    func validate() throws {
        guard stories > 0, days > 0 else { throw ValidationError("--stories and --days must be positive") }
        guard startDay >= 0 else { throw ValidationError("--start-day must not be negative") }
        // Dates past 9999-12-31 are refused by news import (and their day arithmetic would overflow).
        guard startDay <= 2_900_000, days <= 2_900_000, startDay + days <= 2_900_000, stories <= 10_000_000 else {
            throw ValidationError("--start-day and --days together reach past the year 9999, or --stories is past 10,000,000")
        }
    }

    func run() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var out = Data()
        for article in SyntheticNews.generate(seed: seed, stories: stories, days: days, startDay: startDay).map(\.ingested) {
            out += try encoder.encode(Line(
                url: article.url, title: article.title, source: article.source, published_at: article.publishedAt,
                description: article.description, body: article.body
            ))
            out.append(0x0A)
        }
        FileHandle.standardOutput.write(out)
    }

    private struct Line: Encodable {
        var url, title, source: String
        var published_at: Int64
        var description: String
        var body: String?
    }
}
