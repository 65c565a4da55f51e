import ArgumentParser
import EventLog
import Foundation
import Logging
import ProductHosting
import ReadModels

/// `<product> replay [--projection NAME …] [--server URL]`: rebuild read models from position 0 into a
/// new generation and swap it in. With `--server`, the running server does it (admin endpoint) and
/// keeps serving the old read models until the swap; without, the data directory must not be served.
public struct ReplayCommand<Product: EventSourcedProduct>: AsyncParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "replay", abstract: "Rebuild read models from the log into a fresh SQLite file and swap it in atomically.")
    }

    @OptionGroup var global: ProductOptions<Product>

    @Option(name: .customLong("projection"), help: "A projection to rebuild (repeatable); all when omitted.")
    var projections: [String] = []

    @Option(help: "A running server's base URL (e.g. http://127.0.0.1:8080): it rebuilds while serving. Admin token from \(Product.environmentPrefix)_ADMIN_TOKEN(_FILE) or <data-dir>/admin-token.")
    var server: String?

    public init() {}

    public func run() async throws {
        let logger = global.logger()
        let names = projections.isEmpty ? nil : projections
        if let server { return try await remote(server, names) }
        let directory = try global.existingProductDirectory()
        if let pid = directory.runningServer {
            throw OperatorRefusal("a server (pid \(pid)) is serving \(global.dataDirectory.path): use --server URL so it rebuilds while serving")
        }
        let report = try await directory.whileStopped("replay") {
            let stores = try await global.openStores(logger: logger)
            defer { stores.close() }
            return try stores.runner(logger: logger).rebuild(names, progress: Self.show)
        }
        print("\nrebuilt \(report.projections.joined(separator: ", ")) to position \(report.position) at \(report.eventsPerSecond) events/s")
    }

    private func remote(_ server: String, _ names: [String]?) async throws {
        let admin = try AdminClient<Product>(server: server, dataDirectory: global.dataDirectory)
        var status = try await admin.send(.POST, "/admin/replay", body: names.map { ["projections": $0] } ?? [:])
        while status["state"] as? String == "running" {
            try await Task.sleep(for: .seconds(1))
            status = try await admin.send(.GET, "/admin/replay")
            let position = status["position"] as? Int ?? 0, head = status["head_position"] as? Int ?? 0
            FileHandle.standardError.write(Data("\rreplaying: \(position)/\(head) events, \(status["events_per_second"] as? Int ?? 0)/s, ETA \(status["eta_seconds"] as? Int ?? 0) s   ".utf8))
        }
        guard status["state"] as? String == "finished" else { throw OperatorRefusal("replay \(status["state"] ?? "?"): \(status["error"] ?? status)") }
        print("\nrebuilt and swapped in by the server at position \(status["position"] ?? "?")")
    }

    private static func show(_ progress: RebuildProgress) {
        let eta = progress.remaining.map { "\(Int($0.components.seconds)) s" } ?? "?"
        FileHandle.standardError.write(Data("\rreplaying: \(progress.position)/\(progress.headPosition) events, \(progress.eventsPerSecond)/s, ETA \(eta)   ".utf8))
    }
}
