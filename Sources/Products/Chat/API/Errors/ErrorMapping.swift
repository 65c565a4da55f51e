import ChatCommands
import ChatDomain
import Hummingbird
import ProductHosting

extension ChatAPIError: ContractError {
    public init(_ refusal: EngineRefusal) {
        // A 401 the HTTP layer raised is DRF's, with its `WWW-Authenticate: Token`.
        if case .otherClientError(.unauthorized, _) = refusal {
            self = .notAuthenticated
            return
        }
        let (message, detail) = Self.words(refusal)
        self.init(refusal.status, refusal.code, message, detail: detail)
        headers = refusal.headers
    }

    /// Chat's words where its contract says more: `detail` names the field of a validation error, and
    /// a body past Chat's limits is told which.
    private static func words(_ refusal: EngineRefusal) -> (message: String, detail: String) {
        switch refusal {
        case .invalidIdempotencyKey(let message): (message, "Idempotency-Key")
        case .operatorRequest(.invalid(let message, let field)): (message, field ?? message)
        case .bodyTooLarge(let limit): (refusal.title, AttachmentLimits.passed(limit))
        case .conflict, .idempotencyKeyReused, .storageFull, .logUnreachable, .readOnly, .readModelsBehind, .notCaughtUp, .shuttingDown,
             .operatorRequest, .signInUnavailable, .noSuchRoute, .methodNotAllowed, .malformedHTTP, .headersTooLarge, .hostHeader, .notAProxy, .otherClientError:
            (refusal.title, refusal.message)
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
