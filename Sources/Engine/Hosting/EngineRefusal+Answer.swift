import Hummingbird

/// What every product answers a refusal with, whatever its error shape: the status, the headers, a
/// short title and a sentence saying what happened and what the client can do. A product puts them
/// in its own shape (`ContractError.init(_:)`), and overrides a sentence only where its contract
/// says more (News takes no `Idempotency-Key`; Chat's `detail` names a field).
extension EngineRefusal {
    /// A full disk is 503, not WebDAV's 507: the condition is the server's and passes once an operator
    /// frees space, and clients and proxies already retry a 503 with `Retry-After`.
    public var status: HTTPResponse.Status { kind.status }
    /// A snake_case name of what happened, for shapes with a code (`storage_full`).
    public var code: String { kind.code }
    public var title: String { kind.title }

    private var kind: (status: HTTPResponse.Status, code: String, title: String) {
        switch self {
        case .conflict, .operatorRequest(.conflict): (.conflict, "conflict", "Conflict")
        case .idempotencyKeyReused: (.unprocessableContent, "idempotency_key_reused", "Idempotency-Key already used")
        case .invalidIdempotencyKey, .operatorRequest(.invalid): (.badRequest, "validation_error", "Invalid request")
        case .storageFull: (.serviceUnavailable, "storage_full", "Storage full")
        case .logUnreachable: (.serviceUnavailable, "log_unreachable", "Event log unreachable")
        case .readOnly: (.methodNotAllowed, "read_only", "Read-only")
        case .readModelsBehind: (.serviceUnavailable, "service_unavailable", "Saved but not yet visible")
        case .notCaughtUp: (.serviceUnavailable, "service_unavailable", "Not caught up")
        case .shuttingDown: (.serviceUnavailable, "service_unavailable", "The server is stopping")
        case .signInUnavailable: (.serviceUnavailable, "sign_in_unavailable", "Sign-in unavailable")
        case .operatorRequest(.userNotFound): (.notFound, "user_not_found", "Not found")
        case .operatorRequest(.unsupportedMediaType): (.unsupportedMediaType, "unsupported_media_type", "Unsupported media type")
        case .noSuchRoute: (.notFound, "not_found", "Not found")
        case .methodNotAllowed: (.methodNotAllowed, "method_not_allowed", "Method not allowed")
        case .bodyTooLarge: (.contentTooLarge, "payload_too_large", "Request body is too large")
        case .malformedHTTP: (.badRequest, "invalid_request", "The request is not well-formed HTTP")
        case .headersTooLarge: (.requestHeaderFieldsTooLarge, "invalid_request", "The request's headers are too large")
        case .hostHeader: (.badRequest, "invalid_request", "The request has more than one Host header, or one that is not a host and port")
        case .notAProxy: (.methodNotAllowed, "method_not_allowed", "CONNECT is not supported")
        case .otherClientError(.unauthorized, _): (.unauthorized, "authentication_required", "Unauthorized")
        case .otherClientError(.badRequest, _): (.badRequest, "invalid_request", "Invalid request")
        case .otherClientError(let status, _): (status, "invalid_request", status.reasonPhrase)
        }
    }

    /// How `logUnreachable(outcomeUnknown: true)`'s message begins; what to do next follows, which a
    /// product whose writes are safe to send again may say in its own words.
    public static let mayHaveBeenSaved = "The server cannot reach its event log right now; the change may have been saved"

    public var message: String {
        switch self {
        case .conflict: "What this request changes was changed by another request while it ran; retry it"
        case .idempotencyKeyReused: "This Idempotency-Key was already used for a different request; use a new key for a new request"
        case .invalidIdempotencyKey(let message), .operatorRequest(.invalid(let message, _)), .operatorRequest(.conflict(let message)),
             .operatorRequest(.userNotFound(let message)), .operatorRequest(.unsupportedMediaType(let message)):
            message
        case .storageFull: "The server cannot record changes right now (its storage is full or refuses writes); nothing was saved, retry later"
        case .logUnreachable(outcomeUnknown: false): "The server cannot reach its event log right now; nothing was saved, retry"
        case .logUnreachable(outcomeUnknown: true):
            Self.mayHaveBeenSaved + ": retry it under the same Idempotency-Key, or, sent without one, check before sending it again"
        case .readOnly: "This server shows a past state of the log and records nothing"
        case .readModelsBehind: "Your change is saved but not yet visible; retry the read shortly"
        case .notCaughtUp: "This server has not yet caught up with the event log as far as this request needs; nothing was done, retry shortly"
        case .shuttingDown: "The server is stopping; retry the request"
        case .signInUnavailable: "Sign in with Apple cannot be checked right now (Apple's signing keys could not be loaded); nothing was done, retry shortly"
        case .noSuchRoute: "No such endpoint"
        case .methodNotAllowed: "This endpoint does not take this method"
        case .bodyTooLarge(let limit): "Request body is too large: " + (limit.map { "at most \($0 >> 10) KB" } ?? "larger than this endpoint takes")
        case .malformedHTTP: "The request is not well-formed HTTP; the connection is closed"
        case .headersTooLarge: "The request's headers are too large: at most 80 KB"
        case .hostHeader: "A request must carry at most one Host header, holding a host and port; the connection is closed"
        case .notAProxy: "CONNECT is not supported: this server is not a proxy"
        case .otherClientError(let status, let message): message ?? status.reasonPhrase
        }
    }

    /// `Retry-After` on what passes by itself; `Connection: close` where the connection cannot go on.
    public var headers: HTTPFields {
        switch self {
        case .storageFull: [.retryAfter: "30"]
        case .logUnreachable: [.retryAfter: "2"]
        case .readModelsBehind, .notCaughtUp, .shuttingDown: [.retryAfter: "1"]
        case .signInUnavailable: [.retryAfter: "5"]
        case .malformedHTTP, .hostHeader: [.connection: "close"]
        case .conflict, .idempotencyKeyReused, .invalidIdempotencyKey, .readOnly, .operatorRequest, .noSuchRoute, .methodNotAllowed,
             .bodyTooLarge, .headersTooLarge, .notAProxy, .otherClientError:
            [:]
        }
    }
}
