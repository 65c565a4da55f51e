import Foundation

/// The `# HELP` lines of `/metrics`. swift-metrics carries no description, so each metric's is
/// written here (the engine's, by their `engine_…` names) or in its product's `metricHelp`, and
/// inserted before the metric's `# TYPE` line as the text is served. `MetricsDescribedTests` fails
/// on a metric the sources record, or a product's binary serves, without one.
public enum MetricHelp {
    public static let engine: [String: String] = [
        "engine_log_append_duration": "Time an append waited for its durable commit to the log.",
        "engine_log_appended_events_total": "Events appended to the log by this process.",
        "engine_log_commit_duration": "Time of one group commit of the embedded log, sync included.",
        "engine_log_commit_batch_appends": "Appends committed together in one group commit.",
        "engine_log_index_failures_total": "Appends whose secondary index write failed and was retried.",
        "engine_projection_applied_events_total": "Events folded into the read models.",
        "engine_projection_batch_duration": "Time to fold one batch of events and checkpoint it.",
        "engine_projection_position": "The last log position a projection has folded.",
        "engine_projection_lag_events": "Events in the log a projection has not folded yet.",
        "engine_rate_limited_total": "Requests answered 429 by the rate limit.",
        "engine_lookups_after_catching_up_total": "Lookups of what this node did not hold, made again once it had folded the shared log's head.",
        "engine_shared_log_commits_total": "Commits to the PostgreSQL log, by whether the predicted positions held.",
        "engine_folded_states_bytes": "Bytes of folded stream states kept between decisions.",
        "engine_sqlite_memory_bytes": "SQLite's share of the heap.",
        "engine_user_erasures_total": "Users erased (their personal-data key destroyed).",
        "engine_apple_keys_load_failures_total": "Loads of Apple's signing keys (Sign in with Apple) that failed.",
        "engine_http_refused_below_router_total": "Requests answered before any route, by reason and status.",
        "hb_requests": "HTTP requests answered, by route, method and status.",
        "hb_request_errors": "HTTP requests answered with an error, by route, method, status and error type.",
        "http_server_request_duration": "Time until a request's answer was ready, by route, method and status.",
        "http_server_active_requests": "HTTP requests being answered now, by method.",
        "process_resident_memory_bytes": "Resident memory (VmRSS), read as /metrics is asked.",
        "process_resident_memory_max_bytes": "The most resident memory the process has held since it started (VmHWM).",
        "process_virtual_memory_bytes": "Virtual memory (VmSize).",
        "process_cpu_seconds_total": "User and system CPU time the process has used.",
        "process_threads": "Threads of the process.",
        "process_start_time_seconds": "When the process started, in seconds since the Unix epoch.",
        "process_open_fds": "File descriptors the process holds open.",
        "process_max_fds": "The most file descriptors the process may open.",
    ]

    /// Every metric name `Product`'s process exposes with its help: the engine's under the
    /// product's prefix, then the product's own.
    public static func exposed(for product: String, own: [String: String]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: engine.map { (EngineMetrics.name($0.key, for: product), $0.value) })
            .merging(own) { _, productOwn in productOwn }
    }

    /// `text` (Prometheus text format) with a `# HELP` line before each `# TYPE` line whose metric
    /// has one in `help`.
    static func annotated(_ text: String, help: [String: String]) -> String {
        var annotated = ""
        annotated.reserveCapacity(text.utf8.count + help.count * 80)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("# TYPE "), let name = line.dropFirst("# TYPE ".count).split(separator: " ").first, let text = help[String(name)] {
                annotated += "# HELP \(name) \(escaped(text))\n"
            }
            annotated += line
            annotated += "\n"
        }
        return String(annotated.dropLast())
    }

    private static func escaped(_ help: String) -> String {
        help.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }
}
