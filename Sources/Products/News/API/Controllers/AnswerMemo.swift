import Foundation
import Hummingbird
import NIOCore
import ReadModels
import Synchronization

/// Answers kept encoded while the read models have not moved: a feed or a day's groups is the same
/// bytes for the same question until an article or a preference is folded. Keyed by what the answer
/// depends on (the endpoint, the query, the user's preferences); `revision` is the read models'.
final class AnswerMemo: Sendable {
    private let memo = Mutex(Memo<String, ByteBuffer>(capacity: 4096, maximumCost: 64 << 20))

    func response(_ id: String, revision: String, headers: HTTPFields = [:], _ make: () throws -> some Encodable) throws -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        if let kept = memo.withLock({ $0.get(id, key: revision) }) {
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: kept))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        let bytes = ByteBuffer(bytes: try encoder.encode(try make()))
        memo.withLock { $0.put(id, key: revision, bytes, cost: bytes.readableBytes) }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: bytes))
    }
}
