import NewsDomain

/// The demo's synthetic articles (`SyntheticNews`), ingested once: seeding again records nothing.
public enum NewsDemoSeed {
    @discardableResult
    public static func run(into commands: NewsCommandService) async throws -> Int {
        let outcomes = try await commands.ingest(try SyntheticNews.generate().map { try NewsRules.article($0.ingested) })
        return outcomes.filter { $0 != .duplicate }.count
    }
}
