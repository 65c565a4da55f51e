import ArgumentParser
import Foundation
import Logging
import NewsCommands
import NewsDomain
import NewsProjections
import OperatorCLI
import ProductHosting

/// `news import FILE.jsonl`: articles from JSON lines, each once per canonical URL.
struct ImportNews: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Ingest articles from JSON lines (url, title, source, published_at, description, body); a URL ingested before is skipped."
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The JSON-lines file.")
    var file: String

    @Flag(help: "Ingest and fold one article at a time, as the feed poller's single new articles are, and print each step's p50/p99/max.")
    var oneAtATime = false

    func run() async throws {
        let logger = global.logger()
        let url = URL(fileURLWithPath: file)
        let parsed = ArticleImport(jsonLines: try Data(contentsOf: url), feed: "import:\(url.lastPathComponent)")
        for rejected in parsed.rejected { FileHandle.standardError.write(Data("line \(rejected.line): \(rejected.reason)\n".utf8)) }
        try await global.whileNoServerRuns("import") {
            let stores = try await global.openStores(logger: logger)
            defer { stores.close() }
            if oneAtATime { return try await ingestOneAtATime(parsed.articles, stores: stores, logger: logger) }
            var recorded = 0
            for start in stride(from: 0, to: parsed.articles.count, by: 1_000) {
                let batch = Array(parsed.articles[start..<min(start + 1_000, parsed.articles.count)])
                recorded += try await NewsCommandService(store: stores.store).ingest(batch).filter { $0 != .duplicate }.count
                // Said only once the batch's append is durable: what a line says was ingested is kept.
                logger.info("ingesting", metadata: ["articles": "\(start + batch.count)/\(parsed.articles.count)"])
            }
            try stores.runner(logger: logger).catchUp()
            print("ingested \(recorded) articles; \(parsed.articles.count - recorded) already held; \(parsed.rejected.count) lines rejected")
            // A file none of whose lines is an article is not one: a script that imports it must hear so.
            if parsed.articles.isEmpty, !parsed.rejected.isEmpty { throw ExitCode(1) }
        }
    }
}

extension ImportNews {
    /// Each article's durable append, then its fold (with the read models' commit), then the WAL
    /// checkpoint a serving runner makes once caught up (a feed's articles come minutes apart, past
    /// its `idleCheckpointInterval`), each timed apart.
    private func ingestOneAtATime(_ articles: [ArticleIngested], stores: ProductStores<NewsProduct>, logger: Logger) async throws {
        let runner = try stores.runner(logger: logger)
        _ = try runner.catchUp()
        runner.checkpointWhileIdle()
        let commands = NewsCommandService(store: stores.store)
        var appends: [Duration] = [], folds: [Duration] = [], checkpoints: [Duration] = []
        let clock = ContinuousClock()
        for article in articles {
            let appendStart = clock.now
            guard try await commands.ingest([article]) != [.duplicate] else { continue }
            let foldStart = clock.now
            _ = try runner.catchUp()
            let checkpointStart = clock.now
            runner.checkpointWhileIdle()
            appends.append(foldStart - appendStart)
            folds.append(checkpointStart - foldStart)
            checkpoints.append(clock.now - checkpointStart)
        }
        print("ingested \(folds.count) articles one at a time; \(articles.count - folds.count) already held")
        print("append (durable): \(Self.spread(appends))")
        print("fold (with its commit): \(Self.spread(folds))")
        print("checkpoint while idle, after the fold: \(Self.spread(checkpoints))")
    }

    private static func spread(_ durations: [Duration]) -> String {
        let ms = durations.map { Double($0.components.attoseconds) / 1e15 + Double($0.components.seconds) * 1000 }.sorted()
        guard let max = ms.last else { return "none" }
        let at = { (share: Int) in ms[min(ms.count - 1, ms.count * share / 100)] }
        return String(format: "p50 %.2f ms, p99 %.2f ms, max %.2f ms", at(50), at(99), max)
    }
}
