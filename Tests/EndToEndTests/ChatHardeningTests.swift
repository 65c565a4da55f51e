import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import TestSupport
import Testing

/// The chat binary under the attacks the second hardening round found: guesses and signups sent
/// in parallel, uploads on a full disk.
@Suite(.timeLimit(.minutes(5))) struct ChatHardeningTests {
    /// Sends every body to `path` at once, each on its own connection; the answers' statuses and
    /// bodies, in the bodies' order.
    static func inParallel(_ server: ServerProcess, _ path: String, _ bodies: [String]) async throws -> [ServerProcess.Reply] {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = bodies.count
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let replies = await withTaskGroup(of: (Int, ServerProcess.Reply).self) { group in
            for (index, body) in bodies.enumerated() {
                group.addTask {
                    var request = HTTPClientRequest(url: server.baseURL + path)
                    request.method = .POST
                    request.headers.add(name: "Content-Type", value: "application/json")
                    request.body = .bytes(ByteBuffer(string: body))
                    guard let response = try? await client.execute(request, timeout: .seconds(120)),
                          let bytes = try? await response.body.collect(upTo: 1 << 20)
                    else { return (index, ServerProcess.Reply(status: 0, json: [:])) }
                    let json = (try? JSONSerialization.jsonObject(with: Data(bytes.readableBytesView))) as? [String: Any] ?? [:]
                    return (index, ServerProcess.Reply(status: response.status.code, json: json, text: String(buffer: bytes)))
                }
            }
            var replies = [ServerProcess.Reply](repeating: ServerProcess.Reply(status: 0, json: [:]), count: bodies.count)
            for await (index, reply) in group { replies[index] = reply }
            return replies
        }
        try await client.shutdown()
        return replies
    }

    @Test func parallelGuessesGetNoMoreTriesThanSequentialOnesAndSpacesMakeNoNewAccount() async throws {
        let directory = try TemporaryDirectory()
        let server = try await ChatEndToEndTests.serve(directory.url.appendingPathComponent("data"))
        defer { server.stopWhenLeaving() }
        #expect(try await server.post("/api/signup/", #"{"email":"gus@example.com","password":"correct horse battery"}"#).status == 201)
        let guesses = (0..<8).map { #"{"email":"gus@example.com","password":"wrong guess \#($0)"}"# }
        let replies = try await Self.inParallel(server, "/api/login/", guesses)
        let checked = replies.filter { $0.status == 400 }.count
        #expect(checked <= 5, "\(checked) of 8 parallel guesses had their password checked")
        #expect(replies.allSatisfy { [400, 429, 503].contains($0.status) }, "\(replies.map(\.status))")
        #expect(replies.contains { $0.status == 429 && $0.json["error"] as? String == "throttled" })
        for variant in ["  gus@example.com", "GUS@example.com ", "\\tgus@example.com"] {
            let reply = try await server.post("/api/login/", #"{"email":"\#(variant)","password":"correct horse battery"}"#)
            #expect(reply.status == 429, "\(variant): \(reply.status)")
        }
        await server.stop()
    }

    @Test func aBurstOfSignupsDoesNotStallOtherUsersAndNeverFailsWhatItDid() async throws {
        let directory = try TemporaryDirectory()
        let server = try await ChatEndToEndTests.serve(directory.url.appendingPathComponent("data"))
        defer { server.stopWhenLeaving() }
        let auth = try await ChatEndToEndTests.login(server, "demo@example.com", "demo-password-1")
        let emails = (0..<20).map { "burst\($0)@example.com" }
        async let burst = Self.inParallel(server, "/api/signup/", emails.map { #"{"email":"\#($0)","password":"correct horse battery"}"# })
        try await Task.sleep(for: .milliseconds(200))
        // Another user's write during the burst is recorded and visible (not 503: its fold is not starved).
        let message = try await server.post("/api/send-chat/", #"{"message":"written during a signup burst"}"#, headers: auth)
        #expect(message.status == 200, "\(message.text)")
        let replies = try await burst
        #expect(replies.allSatisfy { [201, 503].contains($0.status) }, "\(replies.map(\.status))")
        #expect(replies.contains { $0.status == 201 })
        // A refused signup did nothing: the same address signs up afterwards.
        for (email, reply) in zip(emails, replies) where reply.status == 503 {
            #expect(reply.json["error"] as? String == "service_unavailable", "\(reply.json)")
            let retried = try await server.post("/api/signup/", #"{"email":"\#(email)","password":"correct horse battery"}"#)
            #expect(retried.status == 201, "\(email) answered 503, then \(retried.status): \(retried.text)")
        }
        await server.stop()
    }

    @Test(.enabled(if: TmpfsMount.isPermitted, "mounting a tmpfs needs root"))
    func anUploadOnAFullDiskIs503StorageFullAndHealthSaysSo() async throws {
        let directory = try TemporaryDirectory()
        let disk = try TmpfsMount(at: directory.url.appendingPathComponent("disk"), megabytes: 32)
        defer { disk.unmount() }
        let server = try await ChatEndToEndTests.serve(disk.url.appendingPathComponent("data"))
        defer { server.stopWhenLeaving() }
        let auth = try await ChatEndToEndTests.login(server, "demo@example.com", "demo-password-1")
        let filler = disk.url.appendingPathComponent("filler")
        _ = try disk.fill(with: filler)
        let boundary = "full-disk-boundary"
        let pdf = "%PDF-1.4\n" + String(repeating: "x", count: 200_000)
        let body = "--\(boundary)\r\nContent-Disposition: form-data; name=\"message\"\r\n\r\nread this\r\n"
            + "--\(boundary)\r\nContent-Disposition: form-data; name=\"files[]\"; filename=\"a.pdf\"\r\nContent-Type: application/pdf\r\n\r\n\(pdf)\r\n--\(boundary)--\r\n"
        var request = HTTPClientRequest(url: server.baseURL + "/api/send-chat/")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "multipart/form-data; boundary=\(boundary)")
        for (name, value) in auth { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let text = String(buffer: try await response.body.collect(upTo: 1 << 20))
        #expect(response.status.code == 503, "\(text)")
        #expect(text.contains("\"error\":\"storage_full\""), "\(text)")
        let health = try await server.get("/health")
        #expect(health.status == 503)
        #expect(health.json["status"] as? String == "degraded", "\(health.text)")
        try FileManager.default.removeItem(at: filler)
        await server.stop()
    }
}
