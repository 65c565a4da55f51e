import HTTPServing
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOConcurrencyHelpers
import Testing

/// A line a product's own logger writes while a request runs (not the request's logger: the
/// assistant's failure, the AI service's fallback) carries that request's id, as the request's own
/// lines do.
@Suite struct RequestIdentityTests {
    @Test func aServicesLogLineDuringARequestCarriesItsId() async throws {
        let lines = NIOLockedValueBox<[Logger.Metadata]>([])
        let service = Logger(label: "service") { _ in CapturingLogHandler(lines: lines) }
        let router = Router()
        router.addMiddleware { RequestObservationMiddleware() }
        router.get("work") { _, _ -> String in
            service.warning("the service failed")
            return "done"
        }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/work", method: .get, headers: [HTTPField.Name("X-Request-Id")!: "req-42"]) { _ in }
            let own = try await client.execute(uri: "/work", method: .get) { $0.headers[HTTPField.Name("X-Request-Id")!] }
            let ids = lines.withLockedValue { $0.map { $0["hb.request.id"]?.description } }
            #expect(ids == ["req-42", own])
        }
        service.warning("outside any request")
        #expect(lines.withLockedValue { $0.last?["hb.request.id"] } == nil)
    }
}

private struct CapturingLogHandler: LogHandler {
    let lines: NIOLockedValueBox<[Logger.Metadata]>
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider? = RequestIdentity.logMetadata

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let provided = metadataProvider?.get() ?? [:]
        lines.withLockedValue { $0.append(provided.merging(metadata) { $1 }.merging(event.metadata ?? [:]) { $1 }) }
    }
}
