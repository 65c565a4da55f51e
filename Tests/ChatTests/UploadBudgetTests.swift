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

    /// A request being read under `budget` once its first `bytes` have arrived, its body still open,
    /// and what sends the rest.
    static func reading(_ bytes: Int, under budget: UploadBudget) async -> (Task<Int, any Error>, AsyncStream<ByteBuffer>.Continuation) {
        let (request, sending) = Self.request()
        let (started, start) = AsyncStream.makeStream(of: Void.self)
        let reading = Task { try await Self.read(request, under: budget, started: start) }
        sending.yield(Self.bytes(bytes))
        for await _ in started { break }
        return (reading, sending)
    }

    /// A request whose whole body, `bytes`, has arrived.
    static func sent(_ bytes: Int) -> Request {
        let (request, sending) = Self.request()
        sending.yield(Self.bytes(bytes))
        sending.finish()
        return request
    }

    @Test func aRequestWaitsForRoomAndGetsItWhenTheHolderIsDone() async throws {
        let budget = UploadBudget(bytes: 100, wait: .seconds(30))
        let (reading, sending) = await Self.reading(80, under: budget)
        #expect(budget.bytesInUse == 80)
        let second = Self.sent(50)
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
        let (reading, sending) = await Self.reading(10, under: budget)
        #expect(try await Self.read(Self.sent(50), under: budget) == 50)
        sending.finish()
        _ = try await reading.value
        #expect(budget.bytesInUse == 0)
    }

    /// An upload holding the whole budget (sent fast, then stalled) held back every user's messages.
    @Test func aBodyDeclaredSmallIsReadWithoutWaitingForRoom() async throws {
        let budget = UploadBudget(bytes: 100, unmetered: 10, wait: .milliseconds(50))
        let (reading, sending) = await Self.reading(100, under: budget)
        func declared(_ length: Int) -> Request {
            let head = HTTPRequest(method: .post, scheme: "http", authority: "localhost", path: "/api/send-chat/", headerFields: [.contentLength: "\(length)"])
            return Request(head: head, body: .init(buffer: Self.bytes(length)))
        }
        #expect(try await Self.read(declared(10), under: budget) == 10)
        await #expect(throws: UploadBudget.Exhausted.self) { _ = try await Self.read(declared(11), under: budget) }
        sending.finish()
        _ = try await reading.value
        #expect(budget.bytesInUse == 0)
    }

    @Test func aRequestThatFindsNoRoomInTimeIsRefused() async throws {
        let budget = UploadBudget(bytes: 100, wait: .milliseconds(50))
        let (reading, sending) = await Self.reading(100, under: budget)
        await #expect(throws: UploadBudget.Exhausted.self) { _ = try await Self.read(Self.sent(1), under: budget) }
        sending.finish()
        _ = try await reading.value
        #expect(budget.bytesInUse == 0)
    }

    /// Two uploads each holding part of the budget and each needing the other's part: both waited
    /// until refused. The younger gives way and the older is read whole, without waiting it out.
    @Test(.timeLimit(.minutes(1))) func twoUploadsThatNeedEachOthersRoomDoNotBothWaitItOut() async throws {
        let budget = UploadBudget(bytes: 100, wait: .seconds(20))
        let (older, sendingOlder) = await Self.reading(50, under: budget)
        let (younger, sendingYounger) = await Self.reading(40, under: budget)
        sendingYounger.yield(Self.bytes(30))
        try await Task.sleep(for: .milliseconds(100))
        let started = ContinuousClock.now
        sendingOlder.yield(Self.bytes(30))
        sendingOlder.finish()
        #expect(try await older.value == 80)
        #expect(ContinuousClock.now - started < .seconds(10), "the older upload waited out the budget's wait")
        sendingYounger.finish()
        await #expect(throws: UploadBudget.Exhausted.self) { _ = try await younger.value }
        #expect(budget.bytesInUse == 0)
    }

    /// The oldest request holds bytes without waiting (its files being stored) while two younger ones
    /// each need the other's part: the younger of them gives way to the older, which waits.
    @Test(.timeLimit(.minutes(1))) func aRequestGivesWayToAnyOlderOneThatWaits() async throws {
        let budget = UploadBudget(bytes: 100, wait: .seconds(20))
        let (oldest, sendingOldest) = await Self.reading(20, under: budget)
        let (older, sendingOlder) = await Self.reading(40, under: budget)
        let (younger, sendingYounger) = await Self.reading(40, under: budget)
        sendingOlder.yield(Self.bytes(30))
        sendingOlder.finish()
        try await Task.sleep(for: .milliseconds(100))
        let started = ContinuousClock.now
        sendingYounger.yield(Self.bytes(30))
        #expect(try await older.value == 70)
        #expect(ContinuousClock.now - started < .seconds(10), "the older upload waited out the budget's wait")
        sendingYounger.finish()
        await #expect(throws: UploadBudget.Exhausted.self) { _ = try await younger.value }
        sendingOldest.finish()
        #expect(try await oldest.value == 20)
        #expect(budget.bytesInUse == 0)
    }
}
