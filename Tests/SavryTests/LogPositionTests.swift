import HTTPTypes
import Testing

/// `X-Log-Position` on every answer, sent back as `X-Min-Position`: on an embedded log, a position
/// this server gave is served at once, one it never wrote is refused at once rather than waited for.
@Suite struct LogPositionTests {
    static let minimum = HTTPField.Name("X-Min-Position")!

    @Test func aPositionGivenIsServedAndOneNeverWrittenIsRefusedAtOnce() async throws {
        try await SavryLiveServer.run { server in
            let token = try await server.client.token("ana")
            let created = try await server.client.send(.post, "/api/app/recipes", token: token, body: #"{"name":"Toast","ingredients":[],"instructions":[]}"#)
            let position = try #require(created.headers[HTTPField.Name("X-Log-Position")!].flatMap { UInt64($0) })
            let read = try await server.client.send(.get, "/api/app/recipes", token: token, headers: [Self.minimum: "\(position)"])
            #expect(read.status == .ok)

            // Waited for, it would be a 503 after the read-your-writes timeout.
            let future = try await server.client.send(.get, "/api/app/recipes", token: token, headers: [Self.minimum: "\(position + 1_000)"])
            #expect(future.status == .badRequest && future.isErrorShape, "\(future.text)")
        }
    }
}
