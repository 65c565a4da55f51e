import ChatCommands
import ChatDomain
import Hummingbird
import ProductHosting

extension ChatAPIError: ContractError {
    public init(_ refusal: EngineRefusal) {
        switch refusal {
        case .conflict: self.init(.conflict, "conflict", "The session changed while the request ran", detail: "Retry the request")
        case .idempotencyKeyReused:
            self.init(.unprocessableContent, "idempotency_key_reused", "This Idempotency-Key was already used for a different request",
                      detail: "Use a new key for a new request")
        case .invalidIdempotencyKey(let message): self.init(.badRequest, "validation_error", message, detail: "Idempotency-Key")
        case .storageFull:
            self.init(.serviceUnavailable, "storage_full", "The server cannot record anything right now (its storage is full)", detail: "Nothing was saved; retry later")
            headers[.retryAfter] = "30"
        case .logUnreachable(let outcomeUnknown):
            self.init(
                .serviceUnavailable, "log_unreachable", "The server cannot reach its event log right now",
                detail: outcomeUnknown ? "It may have been saved: check before sending it again" : "Nothing was saved; retry"
            )
            headers[.retryAfter] = "2"
        case .readOnly:
            self.init(.methodNotAllowed, "read_only", "This server shows a past state and records nothing", detail: "Writes are refused by `chat as-of --serve`")
        case .readModelsBehind: self = .serviceUnavailable("Your change is saved but not yet visible; retry the read shortly", retryAfter: 1)
        case .notCaughtUp: self = .serviceUnavailable("This server has not yet caught up with X-Min-Position; nothing was done, retry shortly", retryAfter: 1)
        case .shuttingDown: self = .serviceUnavailable("The server is stopping; retry the request", retryAfter: 1)
        case .operatorRequest(.invalid(let message, _)): self.init(.badRequest, "validation_error", message, detail: message)
        case .operatorRequest(.conflict(let message)): self.init(.conflict, "conflict", message, detail: message)
        case .operatorRequest(.notFound(let message)): self.init(.notFound, "not_found", message, detail: message)
        case .operatorRequest(.unsupportedMediaType(let message)):
            self.init(.unsupportedMediaType, "unsupported_media_type", message, detail: message)
        case .noSuchRoute: self.init(.notFound, "not_found", "Not found.", detail: "No such endpoint")
        case .methodNotAllowed: self.init(.methodNotAllowed, "method_not_allowed", "Method not allowed.", detail: "This endpoint does not take this method")
        case .bodyTooLarge(let limit):
            self.init(.contentTooLarge, "payload_too_large", "Request body is too large", detail: AttachmentLimits.passed(limit))
        case .malformedHTTP:
            self.init(.badRequest, "bad_request", "The request is not well-formed HTTP", detail: "The connection is closed")
            headers[.connection] = "close"
        case .headersTooLarge:
            self.init(.requestHeaderFieldsTooLarge, "bad_request", "The request's headers are too large", detail: "At most 80 KB; the connection is closed")
        case .notAProxy: self.init(.methodNotAllowed, "method_not_allowed", "Method not allowed", detail: "CONNECT is not supported: this server is not a proxy")
        case .otherClientError(let status, let message): self.init(status, "bad_request", message ?? status.reasonPhrase, detail: status.reasonPhrase)
        }
    }

    /// The answer to Chat's own errors; nil for anything else (a bug: 500).
    public static func mapping(_ error: any Error) -> ChatAPIError? {
        switch error {
        case let error as ChatAPIError:
            return error
        case let error as ChatDomainError:
            return mapping(error)
        case let error as Conversations.NoReply:
            let detail = "Your message is saved in session \(error.sessionId); the assistant \(error.failure). Send it again to retry."
            return error.failure.isTimeout
                ? ChatAPIError(.gatewayTimeout, "assistant_timeout", "The assistant took too long to answer", detail: detail)
                : ChatAPIError(.badGateway, "assistant_unavailable", "The assistant could not answer", detail: detail)
        case is UploadBudget.Exhausted:
            return .serviceUnavailable("The server is receiving as many uploads as it holds at once; nothing was recorded, send it again shortly", retryAfter: 2)
        case let busy as PasswordHashing.Busy:
            return .serviceUnavailable("The server is checking too many passwords right now; nothing was done, retry shortly", retryAfter: busy.retryAfterSeconds)
        // total: a switch over every error type; the engine's refusals are answered by `init(_:)`.
        default:
            return nil
        }
    }

    private static func mapping(_ error: ChatDomainError) -> ChatAPIError {
        switch error {
        case .sessionNotFound(let sessionId): .sessionNotFound(sessionId)
        case .userNotFound: .invalidToken("This token's user no longer exists")
        case .emailTaken: ChatAPIError(.badRequest, "email_taken", "A user with that email already exists.", detail: "email")
        case .invalid(field: "message", let reason) where reason.hasPrefix("is empty"): .emptyMessage
        case .invalid(let field, let reason): .invalid(field, reason)
        }
    }
}
