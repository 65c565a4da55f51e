import NIOCore
import ReadModels
import NIOConcurrencyHelpers

/// Answers kept encoded while the read models they were read from have not moved: the same question
/// at the same revision gets the same bytes, without reading or encoding again. `id` names the
/// question (the endpoint and everything the answer depends on), `revision` the read models' state.
public final class RememberedAnswers: Sendable {
    private let memo: NIOLockedValueBox<Memo<String, ByteBuffer>>

    public init(capacity: Int = 4_096, maximumBytes: Int) {
        memo = NIOLockedValueBox(Memo(capacity: capacity, maximumCost: maximumBytes))
    }

    public func body(for id: String, revision: String) -> ByteBuffer? {
        memo.withLockedValue { $0.get(id, key: revision) }
    }

    public func keep(_ body: ByteBuffer, for id: String, revision: String) {
        memo.withLockedValue { $0.put(id, key: revision, body, cost: body.readableBytes + id.utf8.count) }
    }
}
