import NuvieApp
import TestSupport

/// Runs `body` against the server exactly as `nuvie serve` runs it, on an ephemeral port of
/// 127.0.0.1 (`withServed`), over the tiny MovieLens fixture.
func withServedApplication(
    _ configure: (inout NuvieConfiguration) -> Void = { _ in },
    _ body: @Sendable (_ port: Int) async throws -> Void
) async throws {
    let directory = try TemporaryDirectory()
    var configuration = NuvieConfiguration.testing(dataDirectory: directory.url)
    configuration.demoDataset = replayFixtures.appendingPathComponent("movielens-tiny")
    configuration.metricsRegistry = metricsRegistry
    configure(&configuration)
    try await withServed(try await buildNuvieApplication(configuration: configuration), body)
    _ = directory
}
