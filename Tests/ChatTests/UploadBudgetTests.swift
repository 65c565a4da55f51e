@testable import ChatAPI
import HTTPTypes
import Hummingbird
import NIOConcurrencyHelpers
import NIOCore
import Testing

/// Send-chat bodies held at once are bounded across requests, each body taking its bytes as they
/// arrive: a request waits for room, one that finds none in time is refused, and a client sending
/// slowly holds only what it has sent.
@Suite struct UploadBudgetTests {
    /// A request whose body arrives as `parts` are sent, and the continuation that sends them.
    static func request() -> (Request, AsyncStream<ByteBuffer>.Continuation) {
        let (parts, sender) = AsyncStream.makeStream(of: ByteBuffer.self)
        let head = HTTPRequest(method: .post, scheme: "http", authority: "localhost", path: "/api/send-chat/")
        return (Request(head: head, body: RequestBody(asyncSequence: parts)), sender)
    }

    static func bytes(_ count: Int) -> ByteBuffer { ByteBuffer(repeating: 0x61, count: count) }

    /// Reads `request`'s body whole under `budget`, saying when it has begun.
    static func read(_ request: Request, under budget: UploadBudget, started: AsyncStream<Void>.Continuation? = nil) async throws -> Int {
        try await budget.metering(request) { request in
            var read = 0
            for try await part in request.body {
                read += part.readableBytes
                started?.yield()
            }
            return read
        }
    }

    @Test func aRequestWaitsForRoomAndGetsItWhenTheHolderIsDone() async throws {
        let budget = UploadBudget(bytes: 100, wait: .seconds(30))
        let (first, sending) = Self.request()
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let reading = Task { try await Self.read(first, under: budget, started: start) }
        sending.yield(Self.bytes(80))
        for await _ in started { break }
        #expect(budget.bytesInUse == 80)
        let (second, sendingSecond) = Self.request()
        sendingSecond.yield(Self.bytes(50))
        sendingSecond.finish()
        let secondDone = NIOLockedValueBox(false)
        let waiting = Task { _ = try await Self.read(second, under: budget); secondDone.withLockedValue { $0 = true } }
        try await Task.sleep(for: .milliseconds(200))
        #expect(secondDone.withLockedValue { $0 } == false, "read 50 bytes while 80 of 100 were held")
        sending.finish()
        #expect(try await reading.value == 80)
        try await waiting.value
        #expect(secondDone.withLockedValue { $0 } && budget.bytesInUse == 0)
    }

    /// The probe's upload that declared 51 MB and sent nothing kept every user's send-chat waiting.
    @Test func aSlowSenderHoldsOnlyWhatItHasSent() async throws {
        let budget = UploadBudget(bytes: 100, wait: .milliseconds(50))
        let (slow, sending) = Self.request()
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let reading = Task { try await Self.read(slow, under: budget, started: start) }
        sending.yield(Self.bytes(10))
        for await _ in started { break }
        let (other, sendingOther) = Self.request()
        sendingOther.yield(Self.bytes(50))
        sendingOther.finish()
        #expect(try await Self.read(other, under: budget) == 50)
        sending.finish()
        _ = try await reading.value
        #expect(budget.bytesInUse == 0)
    }

    @Test func aRequestThatFindsNoRoomInTimeIsRefused() async throws {
        let budget = UploadBudget(bytes: 100, wait: .milliseconds(50))
        let (first, sending) = Self.request()
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let reading = Task { try await Self.read(first, under: budget, started: start) }
        sending.yield(Self.bytes(100))
        for await _ in started { break }
        let (second, sendingSecond) = Self.request()
        sendingSecond.yield(Self.bytes(1))
        sendingSecond.finish()
        await #expect(throws: UploadBudget.Exhausted.self) { _ = try await Self.read(second, under: budget) }
        sending.finish()
        _ = try await reading.value
        #expect(budget.bytesInUse == 0)
    }
}
