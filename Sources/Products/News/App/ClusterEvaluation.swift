import EventLog
import EventSourcing
import Foundation
import Logging
import NewsCommands
import NewsDomain
import NewsProjections
import ReadModels

/// How well story groups and de-duplication match what the synthetic generator knows: the articles
/// of one seed ingested into a scratch log and folded, then compared with the truth.
///
/// - B-cubed precision, recall and F1 over groups: for each article, the share of its predicted
///   group that reports its event, and the share of its event's articles in its predicted group.
/// - De-duplication precision and recall: of the articles marked copies, how many are copies; of the
///   copies, how many were marked.
public struct ClusterEvaluation: Sendable, CustomStringConvertible {
    public var articles: Int
    public var groups: Int
    public var stories: Int
    /// The articles of the largest group.
    public var largestGroup: Int
    /// The longest time from a group's first article to its last, copies aside, in seconds.
    public var longestGroupSpan: Int64
    public var precision: Double
    public var recall: Double
    public var f1: Double { precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall) }
    public var duplicatesMarked: Int
    public var duplicatePrecision: Double
    public var duplicateRecall: Double

    /// Of the demo's size (80 events over 30 days) unless `stories` and `days` say otherwise.
    public static func run(
        seed: UInt64, noise: Double, stories: Int = 80, days: Int = SyntheticNews.days, in directory: URL
    ) async throws -> ClusterEvaluation {
        let generated = SyntheticNews.generate(seed: seed, noise: noise, stories: stories, days: days)
        let log = try EventLog(configuration: .init(directory: directory.appendingPathComponent("log"), initialMapSize: 16 << 20))
        defer { log.close() }
        let store = EventStore<NewsCatalog>(log: log, personalData: WithheldPersonalData())
        _ = try await NewsCommandService(store: store).ingest(try generated.map { try NewsRules.article($0.ingested) })
        let database = try ReadDatabase(path: directory.appendingPathComponent("read.sqlite").path, projections: NewsReadModels.all)
        defer { try? database.close() }
        let runner = try NewsRunner(log: log, personalData: WithheldPersonalData(), database: database, projections: NewsReadModels.all, logger: Logger(label: "eval"))
        _ = try await BlockingWork.run { try runner.catchUp() }
        let predicted = try NewsQueries(database: database).groupsByURL()
        return score(generated, predicted)
    }

    static func score(_ truth: [SyntheticNews.Article], _ predicted: [String: (group: Int64, duplicateOf: Int64?, position: Int64)]) -> ClusterEvaluation {
        let urls = truth.compactMap { article in CanonicalURL.of(article.ingested.url).map { (article, $0) } }
        var byGroup: [Int64: [Int]] = [:], byStory: [Int: [Int]] = [:]
        for (index, (article, url)) in urls.enumerated() {
            byGroup[predicted[url]?.group ?? -Int64(index) - 1, default: []].append(index)
            byStory[article.storyKey, default: []].append(index)
        }
        var precision = 0.0, recall = 0.0
        for (index, (article, url)) in urls.enumerated() {
            let group = byGroup[predicted[url]?.group ?? -Int64(index) - 1] ?? [index]
            let story = byStory[article.storyKey] ?? [index]
            let shared = Double(Set(group).intersection(story).count)
            precision += shared / Double(group.count)
            recall += shared / Double(story.count)
        }
        var spans: [Int64: ClosedRange<Int64>] = [:]
        for (article, url) in urls where predicted[url]?.duplicateOf == nil {
            guard let group = predicted[url]?.group else { continue }
            let time = article.ingested.publishedAt
            spans[group] = spans[group].map { min($0.lowerBound, time)...max($0.upperBound, time) } ?? time...time
        }
        let marked = urls.filter { predicted[$0.1]?.duplicateOf != nil }
        let copies = urls.filter { $0.0.copyOf != nil }
        let n = Double(max(urls.count, 1))
        return ClusterEvaluation(
            articles: urls.count, groups: byGroup.count, stories: byStory.count, largestGroup: byGroup.values.map(\.count).max() ?? 0,
            longestGroupSpan: spans.values.map { $0.upperBound - $0.lowerBound }.max() ?? 0, precision: precision / n, recall: recall / n,
            duplicatesMarked: marked.count,
            duplicatePrecision: marked.isEmpty ? 1 : Double(marked.filter { $0.0.copyOf != nil }.count) / Double(marked.count),
            duplicateRecall: copies.isEmpty ? 1 : Double(copies.filter { predicted[$0.1]?.duplicateOf != nil }.count) / Double(copies.count)
        )
    }

    public var description: String {
        String(
            format: "%d articles, %d events, %d groups (the largest %d articles, the longest %.1f days): B-cubed precision %.3f, recall %.3f, F1 %.3f; %d marked copies: precision %.3f, recall %.3f",
            articles, stories, groups, largestGroup, Double(longestGroupSpan) / 86_400, precision, recall, f1, duplicatesMarked, duplicatePrecision, duplicateRecall
        )
    }
}
