import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

/// What the engine serves for every product, tested on its test product over HTTP: `/health` and
/// `/metrics`, the operator routes behind their token and in the product's error shape, the audit
/// trail, an operator's erasure, a replay while serving, and a user's personal-data export.
@Suite(.timeLimit(.minutes(2))) struct ServedEngineTests {
    static let adminToken = String(repeating: "operator-token-", count: 3)
    static let admin: HTTPFields = [HTTPField.Name("X-Admin-Token")!: adminToken]
    static let adminJSON: HTTPFields = [HTTPField.Name("X-Admin-Token")!: adminToken, .contentType: "application/json"]

    /// The tally product served over a new data directory, with a client, given these counts.
    func served(_ counts: [(tally: String, user: Int64, amount: Int)], _ body: @Sendable (TestClient) async throws -> Void) async throws {
        try await withServedTally({ $0.adminToken = Self.adminToken }) { port in
            try await withClient(port: port) { client in
                for (tally, user, amount) in counts {
                    let response = try await client.post("/tallies/\(tally)", body: Self.json(["user_id": user, "amount": amount, "note": "note of \(user)"]))
                    try #require(response.head.status == .created)
                }
                try await body(client)
            }
        }
    }

    static func json(_ object: [String: Any]) throws -> ByteBuffer {
        ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: object))
    }

    static func object(_ response: TestClient.Response) throws -> [String: Any] {
        let body = try #require(response.body)
        return try #require(try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any])
    }

    @Test func healthShowsTheLogAndEveryProjectionAndMetricsArePrometheusText() async throws {
        try await served([("cups", 1, 2), ("plates", 2, 1)]) { client in
            let health = try await client.get("/health")
            #expect(health.head.status == .ok)
            let body = try Self.object(health)
            #expect(body["status"] as? String == "ok" && body["log_head_position"] as? Int == 2)
            #expect((body["log"] as? [String: Any])?["backend"] as? String == "embedded")
            let projections = try #require(body["projections"] as? [[String: Any]])
            #expect(projections.map { $0["name"] as? String } == ["tallies", "tally-notes"])
            #expect(projections.allSatisfy { $0["position"] as? Int == 2 && $0["lag"] as? Int == 0 && $0["failure"] is NSNull })

            let metrics = try await client.get("/metrics")
            #expect(metrics.head.status == .ok && metrics.head.headerFields[.contentType]?.hasPrefix("text/plain") == true)
        }
    }

    @Test func theOperatorRoutesNeedTheTokenAndAnswerInTheProductsShape() async throws {
        try await served([("cups", 1, 2)]) { client in
            for headers: HTTPFields in [[:], [HTTPField.Name("X-Admin-Token")!: "not-the-token"]] {
                let refused = try await client.get("/admin/events", headers: headers)
                #expect(refused.head.status == .unauthorized)
                #expect(try Self.object(refused).keys.sorted() == ["error"])
            }
            let bad = try await client.get("/admin/events?limit=0", headers: Self.admin)
            #expect(bad.head.status == .badRequest)
            #expect(try (Self.object(bad)["error"] as? String)?.contains("limit") == true)
            let notJSON = try await client.post("/admin/replay", headers: Self.admin, body: ByteBuffer(string: "projections"))
            #expect(notJSON.head.status == .unsupportedMediaType)
            var nearMiss = Self.admin
            nearMiss[.contentType] = "application/jsonp"
            let jsonp = try await client.post("/admin/replay", headers: nearMiss, body: ByteBuffer(string: #"{"projections":["tallies"]}"#))
            #expect(jsonp.head.status == .unsupportedMediaType)
        }
    }

    @Test func theLogIsReadInPagesAndByStreamAndAUsersAuditHasWhatTheyDid() async throws {
        try await served([("cups", 1, 2), ("plates", 2, 1), ("bowls", 1, 1)]) { client in
            let first = try Self.object(try await client.get("/admin/events?limit=2", headers: Self.admin))
            #expect((first["events"] as? [[String: Any]])?.map { $0["position"] as? Int } == [1, 2])
            #expect(first["next_from"] as? Int == 3 && first["head_position"] as? Int == 3)
            let last = try Self.object(try await client.get("/admin/events?from=3", headers: Self.admin))
            #expect((last["events"] as? [[String: Any]])?.count == 1 && last["next_from"] is NSNull)

            let stream = try Self.object(try await client.get("/admin/streams/user-1/events", headers: Self.admin))
            let payloads = try #require((stream["events"] as? [[String: Any]])?.compactMap { $0["payload"] as? [String: Any] })
            #expect(payloads.map { $0["tally"] as? String } == ["cups", "bowls"])
            // An operator sees what happened, never what anyone wrote.
            #expect(payloads.allSatisfy { $0.keys.sorted() == ["amount", "tally", "userId"] })

            let audit = try Self.object(try await client.get("/admin/users/2/audit", headers: Self.admin))
            let entries = try #require(audit["events"] as? [[String: Any]])
            #expect(entries.map { $0["position"] as? Int } == [2] && entries.first?["role"] as? String == "actor")
            #expect(audit["total_count"] as? Int == 1 && audit["has_more"] as? Bool == false)
        }
    }

    @Test func anOperatorErasesAUserOnceAndTheirNoteIsGoneFromTheLogAndTheReadModels() async throws {
        try await served([("cups", 1, 2), ("cups", 2, 3)]) { client in
            // A field the erase does not read is refused, not dropped: the user erased is the path's.
            let misplaced = try await client.post("/admin/users/1/erase", headers: Self.adminJSON, body: try Self.json(["user_id": 2]))
            #expect(misplaced.head.status == .badRequest)
            let erased = try await client.post("/admin/users/1/erase", headers: Self.adminJSON, body: ByteBuffer(string: "{}"))
            #expect(erased.head.status == .ok)
            #expect(try Self.object(erased)["position"] as? Int == 3)
            #expect(try await client.post("/admin/users/1/erase", headers: Self.admin, body: ByteBuffer()).head.status == .conflict)
            #expect(try await client.post("/admin/users/9/erase", headers: Self.admin, body: ByteBuffer()).head.status == .notFound)
            #expect(try await client.post("/admin/users/zero/erase", headers: Self.admin, body: ByteBuffer()).head.status == .badRequest)

            let stream = try Self.object(try await client.get("/admin/streams/user-1/events", headers: Self.admin))
            let events = try #require(stream["events"] as? [[String: Any]])
            #expect(events.map { $0["type"] as? String } == ["counted", "user-erased"])
            let export = try Self.object(try await client.get("/users/1/export"))
            #expect((export["account"] as? [String: Any])?["notes"] as? Int == 0)
            let exported = try #require(export["events"] as? [[String: Any]])
            #expect(exported.map { $0["type"] as? String } == ["counted", "user-erased"])
            #expect(exported.allSatisfy { ($0["payload"] as? [String: Any])?["note"] as? String == nil })
            // The tally itself is not personal: it keeps both counts.
            #expect(try Self.object(try await client.get("/tallies/cups"))["total"] as? Int == 5)
        }
    }

    @Test func aReplayRebuildsAProjectionWhileServingAndAnUnknownOneIsRefused() async throws {
        try await served([("cups", 1, 2), ("cups", 2, 3)]) { client in
            let unknown = try await client.post("/admin/replay", headers: Self.adminJSON, body: try Self.json(["projections": ["nothing"]]))
            #expect(unknown.head.status == .badRequest)
            let started = try await client.post("/admin/replay", headers: Self.adminJSON, body: try Self.json(["projections": ["tallies"]]))
            #expect(started.head.status == .accepted)
            var state = try Self.object(started)["state"] as? String
            for _ in 0..<200 where state == "running" {
                try await Task.sleep(for: .milliseconds(50))
                state = try Self.object(try await client.get("/admin/replay", headers: Self.admin))["state"] as? String
            }
            #expect(state == "finished")
            #expect(try Self.object(try await client.get("/tallies/cups"))["total"] as? Int == 5)
        }
    }

    @Test func aUsersExportHasTheirOwnEventsWithTheirNotesOpened() async throws {
        try await served([("cups", 1, 2), ("plates", 2, 1), ("bowls", 1, 1)]) { client in
            let response = try await client.get("/users/1/export")
            #expect(response.head.headerFields[.contentDisposition] == #"attachment; filename="tally-export-1.json""#)
            let export = try Self.object(response)
            #expect(export["product"] as? String == "tally" && export["user_id"] as? Int == 1)
            #expect((export["account"] as? [String: Any])?["notes"] as? Int == 2)
            let events = try #require(export["events"] as? [[String: Any]])
            #expect(events.map { $0["position"] as? Int } == [1, 3])
            #expect(events.allSatisfy { $0["role"] as? String == "actor" && ($0["payload"] as? [String: Any])?["note"] as? String == "note of 1" })
        }
    }
}
