import ArgumentParser
import Foundation
import NewsCommands
import NewsProjections

/// `news import FILE.jsonl`: articles from JSON lines, each once per canonical URL.
struct ImportNews: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Ingest articles from JSON lines (url, title, source, published_at, description, body); a URL ingested before is skipped."
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The JSON-lines file.")
    var file: String

    func run() async throws {
        let logger = global.logger()
        if let pid = try global.productDirectory().runningServer {
            throw ValidationError("a server (pid \(pid)) is serving \(global.dataDir): stop it first")
        }
        let url = URL(fileURLWithPath: file)
        let parsed = ArticleImport(jsonLines: try Data(contentsOf: url), feed: "import:\(url.lastPathComponent)")
        for rejected in parsed.rejected { FileHandle.standardError.write(Data("line \(rejected.line): \(rejected.reason)\n".utf8)) }
        let stores = try await global.openStores(logger: logger)
        defer { stores.close() }
        var recorded = 0
        for start in stride(from: 0, to: parsed.articles.count, by: 1_000) {
            let batch = Array(parsed.articles[start..<min(start + 1_000, parsed.articles.count)])
            recorded += try await NewsCommandService(store: stores.store).ingest(batch).filter { $0 != .duplicate }.count
            // Said only once the batch's append is durable: what a line says was ingested is kept.
            logger.info("ingesting", metadata: ["articles": "\(start + batch.count)/\(parsed.articles.count)"])
        }
        try stores.runner(logger: logger).catchUp()
        print("ingested \(recorded) articles; \(parsed.articles.count - recorded) already held; \(parsed.rejected.count) lines rejected")
    }
}
