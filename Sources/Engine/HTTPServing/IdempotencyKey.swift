import Hummingbird

/// An `Idempotency-Key` header that is not 1–255 characters.
public struct InvalidIdempotencyKey: Error, Equatable, CustomStringConvertible {
    public var description: String { "Idempotency-Key must be 1–255 characters" }
}

extension Request {
    /// The client's `Idempotency-Key`, which names a write's event so a retried request is recorded
    /// once (the product derives the event id from it, per user and per action); nil without one.
    public func idempotencyKey() throws(InvalidIdempotencyKey) -> String? {
        guard let key = headers.first(where: { $0.name.canonicalName == "idempotency-key" })?.value else { return nil }
        guard (1...255).contains(key.utf8.count) else { throw InvalidIdempotencyKey() }
        return key
    }
}
