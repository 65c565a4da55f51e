import AppleSignIn
import EventLog
import EventSourcing
import HTTPServing
import Hummingbird
import NIOCore
import NIOHTTP1
import PersonalData
import ReadModels

/// Everything the engine refuses on a request path, in terms a client can act on. A case added here
/// does not compile until it has its status, code, title, sentence and headers
/// (`EngineRefusal+Answer.swift`), which each product puts in its own contract's shape.
public enum EngineRefusal: Error, Sendable, Equatable {
    /// The stream moved on while the command decided: retrying decides again.
    case conflict
    /// The request's idempotency key was already used for a different request.
    case idempotencyKeyReused
    /// The `Idempotency-Key` header is malformed.
    case invalidIdempotencyKey(String)
    /// A disk is full: the event log, the read models, or a store a product keeps beside them.
    case storageFull
    /// The shared log (PostgreSQL) did not answer: nothing recorded, or, when `outcomeUnknown`, maybe
    /// recorded; a retry with the same `Idempotency-Key` is safe either way.
    case logUnreachable(outcomeUnknown: Bool)
    /// The log was opened read-only: a server showing a past state (`as-of --serve`).
    case readOnly
    /// The write is recorded, but the read models had not folded it in time to answer from them.
    case readModelsBehind(position: UInt64)
    /// The request needs a log position this server's read models had not folded, still after the
    /// read-your-writes timeout (its `X-Min-Position`, or a token issued through another node a moment
    /// ago): nothing was done; a retry may find this server caught up.
    case notCaughtUp(position: UInt64)
    /// The log closed under the request: the server is stopping.
    case shuttingDown
    /// An operator request the engine refused (`/admin`).
    case operatorRequest(OperatorRequestError)
    /// No route has this path.
    case noSuchRoute
    /// The route exists but not with this method.
    case methodNotAllowed
    /// The body is larger than the route accepts: at most `limit` bytes, when the route said.
    case bodyTooLarge(limit: Int?)
    /// The bytes are not HTTP; the connection is closed after the answer.
    case malformedHTTP
    /// The request's headers are past the decoder's limit (80 KB); the connection is closed after the answer.
    case headersTooLarge
    /// A request with more than one `Host` header, or one whose value is not a host and port (RFC 9112
    /// §3.2: answered 400); the connection is closed after the answer.
    case hostHeader
    /// Sign in with Apple cannot check a token: Apple's keys could not be loaded.
    case signInUnavailable
    /// A `CONNECT`: this server is no proxy; the connection is closed after the answer.
    case notAProxy
    /// Any other 4xx the HTTP layer raised, with its message when it has one.
    case otherClientError(HTTPResponse.Status, message: String?)

    /// The refusal `error` is, or nil when the engine did not raise it as a refusal: a product's
    /// own error, or a bug.
    public init?(_ error: any Error) {
        switch error {
        case let refusal as EngineRefusal: self = refusal
        case EventLogError.wrongExpectedVersion, CommandError.tooMuchContention: self = .conflict
        case EventLogError.partialDuplicate, EventLogError.eventIdReused: self = .idempotencyKeyReused
        case let error as InvalidIdempotencyKey: self = .invalidIdempotencyKey(error.description)
        case is StorageFullError: self = .storageFull
        case let error as SharedLogUnreachable: self = .logUnreachable(outcomeUnknown: error.outcomeUnknown)
        case EventLogError.readOnly: self = .readOnly
        case EventLogError.closed: self = .shuttingDown
        case let error as ReadModelsBehind: self = .readModelsBehind(position: error.position)
        case let error as NotCaughtUp: self = .notCaughtUp(position: error.position)
        case let error as OperatorRequestError: self = .operatorRequest(error)
        case let error as BodyTooLarge: self = .bodyTooLarge(limit: error.limit)
        case is AppleKeysUnavailable: self = .signInUnavailable
        // The signed-in user was erased while the request ran, before it sealed what it writes.
        case KeyStore.Failure.keyDestroyed:
            self = .otherClientError(.unauthorized, message: "The account this request writes for was deleted while it ran; nothing more is saved for it")
        // Its `maxBytes` is what was left of the limit after the first fragment, not the limit.
        case is NIOTooManyBytesError: self = .bodyTooLarge(limit: nil)
        case HTTPParserError.headerOverflow: self = .headersTooLarge
        case is HTTPParserError: self = .malformedHTTP
        case let error as HTTPError: self.init(error)
        // total: a switch over every error type; the rest are a product's own errors or bugs.
        default: return nil
        }
    }

    private init?(_ error: HTTPError) {
        switch error.status {
        case .notFound: self = .noSuchRoute
        case .methodNotAllowed: self = .methodNotAllowed
        case .contentTooLarge: self = .bodyTooLarge(limit: nil)
        case let status where (400..<500).contains(status.code): self = .otherClientError(status, message: error.body)
        // total: a 5xx the HTTP layer raised is a bug, answered as one.
        default: return nil
        }
    }

    /// One of each case, for tests that check a product answers every refusal.
    public static let examples: [EngineRefusal] = [
        .conflict, .idempotencyKeyReused, .invalidIdempotencyKey("Idempotency-Key must be 1–255 characters"), .storageFull,
        .logUnreachable(outcomeUnknown: false), .logUnreachable(outcomeUnknown: true), .readOnly,
        .readModelsBehind(position: 7), .notCaughtUp(position: 9), .shuttingDown,
        .operatorRequest(.invalid("bad", field: "limit")), .operatorRequest(.conflict("busy")),
        .operatorRequest(.userNotFound("no user 9")), .operatorRequest(.unsupportedMediaType("JSON only")),
        .signInUnavailable, .noSuchRoute, .methodNotAllowed, .bodyTooLarge(limit: 64 << 10), .bodyTooLarge(limit: nil), .malformedHTTP, .headersTooLarge,
        .hostHeader, .notAProxy, .otherClientError(.unauthorized, message: nil),
        .otherClientError(.badRequest, message: "bad"),
    ]
}
