import Foundation
import TestSupport
import Testing

/// Apple's signing keys out of reach: every Sign in with Apple answers 503 (`AppleKeysUnavailableTests`),
/// and the operator hears of it from the server, not from users: one error line an outage, and a
/// counter of failed loads at `/metrics`.
@Suite(.timeLimit(.minutes(2))) struct AppleKeysOutageTests {
    @Test func anOutageOfApplesKeysIsLoggedOnceAndCounted() async throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("data")
        let environment = ["SAVRY_APPLE_BUNDLE_ID": "app.savry.tests", "SAVRY_APPLE_JWKS": "http://127.0.0.1:9/keys"]
        let server = try await ServerProcess.start("savry", outputDirectory: directory.url, environment: environment) { port in
            ["serve", "--data-dir", data.path, "--port", "\(port)", "--demo", "--log-level", "notice"]
        }
        defer { server.stopWhenLeaving() }
        for attempt in 0..<3 {
            if attempt == 2 { try await Task.sleep(for: .seconds(6)) }  // past the failure's memory: loaded (and failing) again
            let signIn = try await server.post("/api/app/auth", #"{"identityToken":"a.b.c"}"#)
            #expect(signIn.status == 503, "\(signIn.status) \(signIn.text)")
        }
        let metrics = try await server.get("/metrics")
        let failures = metrics.text.split(separator: "\n").first { $0.hasPrefix("savry_apple_keys_load_failures_total ") }
        #expect(failures.flatMap { Double($0.split(separator: " ").last ?? "") } == 2, "\(failures ?? "no such metric")")
        let logged = server.everythingSaid().components(separatedBy: "Apple's signing keys could not be loaded").count - 1
        #expect(logged == 1, "\(server.everythingSaid().suffix(2_000))")
    }
}
