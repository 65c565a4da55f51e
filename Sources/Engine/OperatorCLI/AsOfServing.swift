import ArgumentParser
import Foundation
import HTTPServing
import Hummingbird
import Logging
import ProductHosting
import ReadModels

/// `--serve PORT [--host ADDRESS]` of a product's `as-of`: its past state served whole, read-only.
public struct AsOfServeOptions<Product: EventSourcedProduct>: ParsableArguments {
    @Option(help: "Serve that state read-only on this port until stopped: a write that would record anything answers 405, one that changes nothing is answered as the live server would.")
    public var serve: Int?

    @Option(help: ArgumentHelp("The address --serve listens on (env \(Product.environmentPrefix)_HOST; default 127.0.0.1)."))
    public var host: String?

    public init() {}
}

extension ProductOptions where Product: ServedProduct {
    /// The whole API as it answered at `when`: the live log copied up to that position into
    /// `output` (else the data directory's scratch, removed afterwards), its read models folded, and served
    /// read-only on `port` until stopped, with the live directory's keys and demo secrets.
    public func serveReadOnly(asOf when: AsOfOptions, host: String?, port: Int, output: URL? = nil) async throws {
        FreedMemory.configureHeap()
        let logger = logger()
        let directory = try output?.standardizedFileURL ?? existingProductDirectory().makeScratch("as-of-serve")
        defer { if output == nil { try? FileManager.default.removeItem(at: directory) } }
        let position: UInt64
        do {
            let live = try openLogAndKeys()
            defer { live.close() }
            position = try when.resolve(in: live.log).position
            try await TimeTravel.dataDirectory(Product.self, of: live.log, personalData: live.personalData, upTo: position, at: directory, logger: logger)
        }
        var configuration = try configuration(Product.Configuration.self, dataDirectory: directory, host: host, logger: logger)
        configuration.demoMode = DataDirectory(dataDirectory).isDemo
        configuration.keysFrom = dataDirectory
        configuration.readOnly = true
        // The past state is a copy of the log up to a position, in the scratch directory.
        configuration.logURL = nil
        configuration.port = port
        logger.info("serving the state as of a log position, read-only", metadata: [
            "position": "\(position)", "address": "\(configuration.host):\(port)", "data_dir": "\(directory.path)",
        ])
        try await Product.application(configuration, logger: logger).runService()
    }
}
