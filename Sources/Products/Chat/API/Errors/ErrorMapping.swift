import ChatCommands
import ChatDomain
import EventLog
import EventSourcing
import HTTPServing
import Hummingbird
import NIOCore
import NIOHTTP1
import ProductHosting
import ReadModels

extension ChatAPIError: ContractError {
    /// The response for any error a handler or middleware throws; nil when it is unexpected (a bug: 500).
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
        case let error as OperatorRequestError:
            return mapping(error)
        case is UploadBudget.Exhausted:
            return .serviceUnavailable("The server is receiving as many uploads as it holds at once; nothing was recorded, send it again shortly", retryAfter: 2)
        case let busy as PasswordHashing.Busy:
            return .serviceUnavailable("The server is checking too many passwords right now; nothing was done, retry shortly", retryAfter: busy.retryAfterSeconds)
        case is ReadModelsBehind:
            return .serviceUnavailable("Your change is saved but not yet visible; retry the read shortly", retryAfter: 1)
        case EventLogError.wrongExpectedVersion, CommandError.tooMuchContention:
            return ChatAPIError(.conflict, "conflict", "The session changed while the request ran", detail: "Retry the request")
        case is StorageFullError:
            var error = ChatAPIError(.serviceUnavailable, "storage_full", "The server cannot record anything right now (its storage is full)", detail: "Nothing was saved; retry later")
            error.headers[.retryAfter] = "30"
            return error
        case EventLogError.readOnly:
            return ChatAPIError(.methodNotAllowed, "read_only", "This server shows a past state and records nothing", detail: "Writes are refused by `chat as-of --serve`")
        case let error as HTTPError:
            return mapping(error)
        case is NIOTooManyBytesError:
            return ChatAPIError(.contentTooLarge, "payload_too_large", "Request body is too large", detail: "At most \(AttachmentRules.maximumFiles) files of \(AttachmentRules.maximumFileBytes >> 20) MB each")
        case is HTTPParserError:
            var error = ChatAPIError(.badRequest, "bad_request", "The request is not well-formed HTTP", detail: "The connection is closed")
            error.headers[.connection] = "close"
            return error
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

    private static func mapping(_ error: OperatorRequestError) -> ChatAPIError {
        switch error {
        case .invalid(let message, _): ChatAPIError(.badRequest, "validation_error", message, detail: message)
        case .conflict(let message): ChatAPIError(.conflict, "conflict", message, detail: message)
        case .notFound(let message): ChatAPIError(.notFound, "not_found", message, detail: message)
        case .unsupportedMediaType(let message): ChatAPIError(.unsupportedMediaType, "unsupported_media_type", message, detail: message)
        }
    }

    private static func mapping(_ error: HTTPError) -> ChatAPIError {
        switch error.status {
        case .notFound: ChatAPIError(.notFound, "not_found", "Not found.", detail: "No such endpoint")
        case .contentTooLarge: ChatAPIError(.contentTooLarge, "payload_too_large", "Request body is too large", detail: "Send a smaller body")
        case .methodNotAllowed: ChatAPIError(.methodNotAllowed, "method_not_allowed", "Method not allowed.", detail: "This endpoint does not take this method")
        case let status where (400..<500).contains(status.code):
            ChatAPIError(status, "bad_request", error.body ?? status.reasonPhrase, detail: status.reasonPhrase)
        default: .internalError
        }
    }
}
