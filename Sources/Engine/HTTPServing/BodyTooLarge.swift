import Hummingbird
import NIOCore

/// A request body past the limit its reader set. NIO's own `NIOTooManyBytesError` names what was
/// left of the limit after the body's first fragment (62 KB of 64, say), which a client must not
/// be told is the limit.
public struct BodyTooLarge: Error, Sendable, Equatable {
    public var limit: Int

    public init(limit: Int) {
        self.limit = limit
    }
}

extension RequestBody {
    /// The whole body, or `BodyTooLarge` past `limit` bytes.
    public func collect(atMost limit: Int) async throws -> ByteBuffer {
        do { return try await collect(upTo: limit) } catch is NIOTooManyBytesError { throw BodyTooLarge(limit: limit) }
    }
}
