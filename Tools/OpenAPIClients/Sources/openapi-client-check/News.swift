import HTTPTypes
import NewsClient
import OpenAPIRuntime

/// News, as user 1 (X-User-ID, the demo's only identification): reads (the feed, the personalized
/// feed, a day's story groups, the brief) and writes (preferences with holdings, an interpretation of
/// pasted text), then the personalized feed again with the holdings.
@Sendable func checkNews(_ run: ProductCheck) async throws {
    let transport = run.transport(headers: [HTTPField.Name("X-User-ID")!: "1"])
    let client = Client(serverURL: run.serverURL, transport: transport.transport, middlewares: transport.middlewares)

    _ = try await run.call("getHealth") {
        switch try await client.getHealth() {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
    let feed = try await run.call("getFeed") {
        switch try await client.getFeed(query: .init(limit: 20)) {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
    try expect(!feed.items.isEmpty, "getFeed: no signals from the demo's articles")
    if let cursor = feed.next_cursor {
        _ = try await run.call("getFeed") {
            switch try await client.getFeed(query: .init(limit: 20, cursor: cursor)) {
            case .ok(let ok): try ok.body.json
            case let other: throw unexpected(other)
            }
        }
    }
    _ = try await run.call("getPersonalizedFeed") {
        switch try await client.getPersonalizedFeed(query: .init(limit: 20)) {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
    // The demo's articles are from a fixed month: the day of its newest signal has groups.
    let day = String(feed.items.map(\.published_at).max()?.prefix(10) ?? "2026-01-01")
    _ = try await run.call("getStoryGroups") {
        switch try await client.getStoryGroups(query: .init(date: day)) {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
    _ = try await run.call("getLatestBrief") {
        switch try await client.getLatestBrief() {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
    let preferences = Components.Schemas.PreferencesRequest(
        focus_profile: .balanced,
        holdings: [.case1("NVDA"), .Holding(.init(ticker: "AAPL", label: "Apple", notes: "core"))]
    )
    let saved = try await run.call("updatePreferences") {
        switch try await client.updatePreferences(body: .json(preferences)) {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
    try expect(saved.holdings_count == 2, "updatePreferences: \(saved.holdings_count) holdings saved, sent 2")
    _ = try await run.call("getPersonalizedFeed") {
        switch try await client.getPersonalizedFeed(query: .init(limit: 20)) {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
    _ = try await run.call("getStoryGroups") {
        switch try await client.getStoryGroups(query: .init(date: day, limit_global: 10, limit_per_ticker: 5)) {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
    _ = try await run.call("interpret") {
        switch try await client.interpret(body: .json(.init(textOrUrl: "Nvidia raises its guidance after record data-center sales"))) {
        case .ok(let ok): try ok.body.json
        case let other: throw unexpected(other)
        }
    }
}
