import Foundation
import NewsProjections
import NIOConcurrencyHelpers
import Testing

/// Six investors set their holdings, one more ticker each write, each investor new per cycle (News
/// keeps preferences per `X-User-ID`, and its other writes are its own feed ingestion). Writes to one
/// investor are sequential, so the holdings served must be at least the last acknowledged count and
/// at most the last one sent (a write the kill cut off may have landed).
final class NewsPreferenceWrites: KillCycleWorkload {
    typealias Product = NewsProduct
    let product = "news"
    static let tickers = [
        "AAPL", "MSFT", "AMZN", "GOOGL", "META", "NVDA", "TSLA", "JPM", "JNJ", "V", "PG", "XOM", "UNH", "HD", "MA", "CVX", "ABBV", "PEP", "KO", "MRK",
        "COST", "WMT", "BAC", "PFE", "TMO", "CSCO", "AVGO", "ACN", "MCD", "ABT", "DIS", "ADBE", "CRM", "NFLX", "CMCSA", "VZ", "INTC", "TXN", "NKE", "ORCL",
    ]
    struct Sent { var acknowledged = 0, sent = 0, acknowledgements = 0 }
    private let investors = NIOLockedValueBox<[String: Sent]>([:])

    func serve(_ dataDirectory: URL) async throws -> ServerProcess {
        try await ServerProcess.start("news", outputDirectory: dataDirectory.deletingLastPathComponent(), environment: ["NEWS_RATE_LIMIT_PER_MINUTE": "1000000"]) { port in
            ["serve", "--data-dir", dataDirectory.path, "--port", "\(port)", "--demo", "--log-level", "warning"]
        }
    }

    func prepare(_ server: ServerProcess) async throws {}

    func burst(against server: ServerProcess, cycle: Int) async {
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<6 {
                group.addTask {
                    let investor = "kill-cycle-\(cycle)-\(writer)"
                    for count in 1...Self.tickers.count where !Task.isCancelled {
                        self.investors.withLockedValue { $0[investor, default: Sent()].sent = count }
                        let holdings = Self.tickers.prefix(count).map { #""\#($0)""# }.joined(separator: ",")
                        let body = #"{"focus_profile":"\#(["focused", "balanced", "broad"][count % 3])","holdings":[\#(holdings)]}"#
                        guard let reply = try? await server.put("/v1/preferences", body, headers: ["X-User-ID": investor]),
                              reply.status == 200, reply.json["holdings_count"] as? Int == count
                        else { return }
                        self.investors.withLockedValue {
                            $0[investor, default: Sent()].acknowledged = count
                            $0[investor, default: Sent()].acknowledgements += 1
                        }
                    }
                }
            }
        }
    }

    var acknowledgedSoFar: Int { investors.withLockedValue { $0.values.reduce(0) { $0 + $1.acknowledgements } } }

    func expectAcknowledgedServed(by server: ServerProcess) async throws -> Int {
        var acknowledged = 0
        for (investor, sent) in investors.withLockedValue({ $0 }) {
            // A PUT that changes nothing records nothing and answers what is stored.
            let stored = try await server.put("/v1/preferences", "{}", headers: ["X-User-ID": investor]).json["holdings_count"] as? Int ?? -1
            #expect((sent.acknowledged...sent.sent).contains(stored), "\(investor): acknowledged \(sent.acknowledged), sent \(sent.sent), stored \(stored)")
            acknowledged += sent.acknowledgements
        }
        return acknowledged
    }
}
