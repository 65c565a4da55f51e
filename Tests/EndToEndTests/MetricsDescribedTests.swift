import ChatProjections
import Foundation
import NewsProjections
import NuvieProjections
import ProductHosting
import SavryProjections
import TestSupport
import Testing

/// Every metric has a `# HELP` line (`MetricHelp`, each product's `metricHelp`): each one the sources
/// record, and each one each product's real binary serves after a few requests, among them the
/// product's own and the engine's under the product's name (one process serves one product, so its
/// metrics are that product's alone), and the process's own under Prometheus' `process_…` names.
@Suite(.timeLimit(.minutes(3))) struct MetricsDescribedTests {
    static let products: [(name: String, arguments: [String], environment: [String: String], own: String)] = [
        ("nuvie", ["--demo", "--demo-dataset", repositoryRoot.appendingPathComponent("replay-fixtures/movielens-tiny").path], [:], "nuvie_recommendation_model_films"),
        ("savry", ["--demo"], [:], "savry_projection_lag_events"),
        ("chat", ["--demo"], ["CHAT_PASSWORD_ITERATIONS": "100000"], "chat_projection_lag_events"),
        ("news", [], ["NEWS_FEEDS": "http://127.0.0.1:9/feed.xml", "NEWS_FEED_INTERVAL_SECONDS": "3600"], "news_feed_fetch_failures_total"),
    ]

    @Test(arguments: products.indices) func everyMetricHasItsHelp(_ index: Int) async throws {
        let product = Self.products[index]
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("data")
        let server = try await ServerProcess.start(product.name, outputDirectory: directory.url, environment: product.environment) { port in
            ["serve", "--data-dir", data.path, "--port", "\(port)", "--log-level", "warning"] + product.arguments
        }
        defer { server.stopWhenLeaving() }
        _ = try await server.get("/no/such/route")
        let deadline = ContinuousClock.now + .seconds(60)
        var text = try await server.get("/metrics").text
        // The product's own metric may be recorded a moment after start (a training, a feed's fetch).
        while !text.contains("# TYPE \(product.own) "), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(200))
            text = try await server.get("/metrics").text
        }
        #expect(text.contains("# HELP \(product.own) "), "\(product.name): \(text)")
        #expect(text.contains("# HELP hb_requests "))
        #expect(PrometheusText.undescribed(text) == [], "\(product.name)'s metrics without a # HELP line")
        // The process's own, read from /proc: its memory at least what it holds now, a start this run.
        let value = { (name: String) in text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ")[1]) } ?? -1 }
        #expect(value("process_resident_memory_bytes") > 10_000_000 && value("process_resident_memory_max_bytes") >= value("process_resident_memory_bytes"))
        let processMetrics = ["resident_memory_bytes", "resident_memory_max_bytes", "virtual_memory_bytes", "cpu_seconds_total", "threads", "start_time_seconds", "open_fds", "max_fds"]
        #expect(processMetrics.filter { value("process_" + $0) <= 0 } == [], "\(product.name)")
        #expect(value("process_open_fds") > 3 && value("process_threads") >= 2 && value("process_cpu_seconds_total") > 0)
        #expect(abs(value("process_start_time_seconds") - Date().timeIntervalSince1970) < 300, "\(product.name) started \(value("process_start_time_seconds"))")
    }

    @Test func everyMetricTheSourcesRecordHasItsHelp() throws {
        let described = Set(MetricHelp.engine.keys).union(
            [NuvieProduct.metricHelp, SavryProduct.metricHelp, ChatProduct.metricHelp, NewsProduct.metricHelp].flatMap(\.keys)
        )
        let recording = try Regex(#"(?:Counter|Gauge|Timer|Recorder|Meter)\(label: "([^"]+)""#)
        var recorded: Set<String> = []
        let sources = repositoryRoot.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        for case let file as URL in files where file.pathExtension == "swift" {
            for match in try String(contentsOf: file, encoding: .utf8).matches(of: recording) {
                if let label = match.output[1].substring { recorded.insert(label.replacingOccurrences(of: ".", with: "_")) }
            }
        }
        #expect(recorded.count >= 20, "the scan found \(recorded.sorted())")
        #expect(recorded.subtracting(described).sorted() == [], "metrics recorded without a # HELP text")
    }
}
