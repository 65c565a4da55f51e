@testable import NuvieAPI
import Foundation
import HTTPTypes
import Testing

/// Nuvie's bodies through the engine's strict JSON: declared JSON, the endpoint's fields only.
@Suite(.timeLimit(.minutes(3))) struct JSONBodyTests {
    @Test func aBodyMustBeDeclaredJSONAndHoldOnlyTheEndpointsFields() async throws {
        try await withLiveServer { client in
            let token = try await client.devLogin("movielens-1")
            let head = try await client.headPosition()
            for contentType in ["text/plain", "application/jsonp", "application/json-seq", "application/"] {
                let plain = try await client.send(.post, "/movies/1/rate", token: token, body: #"{"rating":4}"#, headers: [.contentType: contentType])
                #expect(plain.status == .unsupportedMediaType && plain.errorCode == "UNSUPPORTED_MEDIA_TYPE", "\(contentType): \(plain.text)")
            }
            for body in [#"{"rating":4,}"#, #"{"rating":4,"rating":1}"#, #"{"rating":4,"is_reveiw":true}"#] {
                let reply = try await client.send(.post, "/movies/1/rate", token: token, body: body)
                #expect(reply.status == .badRequest && reply.errorCode == "VALIDATION_ERROR", "\(body): \(reply.text)")
            }
            #expect(try await client.headPosition() == head)
            let charset = try await client.send(.post, "/movies/1/rate", token: token, body: #"{"rating":4}"#, headers: [.contentType: "Application/JSON; charset=utf-8"])
            #expect(charset.status == .ok, "\(charset.text)")
            let spaced = try await client.send(.post, "/movies/1/rate", token: token, body: #"{"rating":3}"#, headers: [.contentType: " application/json ;charset=utf-8"])
            #expect(spaced.status == .ok, "\(spaced.text)")
        }
    }
}
