import Hummingbird
import NuvieDomain
import NuvieRecommendations
import ProductHosting

extension NuvieAPIError: ContractError {
    public init(_ refusal: EngineRefusal) {
        switch refusal {
        case .conflict: self = .conflict("The resource changed while the request ran; retry it")
        case .idempotencyKeyReused: self = .idempotencyKeyReused
        case .invalidIdempotencyKey(let message): self = .validation(message, field: "Idempotency-Key")
        case .storageFull: self = .storageFull()
        case .logUnreachable(let outcomeUnknown):
            self.init(.serviceUnavailable, code: "LOG_UNREACHABLE", message: "The server cannot reach its event log right now; " + (
                outcomeUnknown ? "the change may have been saved: retry it under the same Idempotency-Key, or, sent without one, check before sending it again" : "nothing was saved, retry"
            ))
            headers[.retryAfter] = "2"
        case .readOnly: self.init(.methodNotAllowed, code: "METHOD_NOT_ALLOWED", message: "This server shows a past state of the log and records nothing")
        case .readModelsBehind(let position): self = .projectionsBehind(position: position)
        case .notCaughtUp(let position):
            self.init(
                .serviceUnavailable, code: "SERVICE_UNAVAILABLE",
                message: "This server has not yet caught up with X-Min-Position; nothing was done, retry shortly", details: ["position": "\(position)"]
            )
            headers[.retryAfter] = "1"
        case .shuttingDown:
            self.init(.serviceUnavailable, code: "SERVICE_UNAVAILABLE", message: "The server is stopping; retry the request")
            headers[.retryAfter] = "1"
        case .operatorRequest(.invalid(let message, let field)): self = .validation(message, field: field)
        case .operatorRequest(.conflict(let message)): self = .conflict(message)
        case .operatorRequest(.notFound(let message)): self = .userNotFound(message)
        case .operatorRequest(.unsupportedMediaType(let message)): self.init(.unsupportedMediaType, code: "UNSUPPORTED_MEDIA_TYPE", message: message)
        case .noSuchRoute: self.init(.notFound, code: "NOT_FOUND", message: "No such endpoint")
        case .methodNotAllowed: self.init(.methodNotAllowed, code: "METHOD_NOT_ALLOWED", message: "Method not allowed on this endpoint")
        case .bodyTooLarge(let limit):
            self.init(.contentTooLarge, code: "PAYLOAD_TOO_LARGE", message: "Request body is too large" + (limit.map { ": at most \($0 >> 10) KB" } ?? ""))
        case .malformedHTTP: self = .malformedRequest
        case .headersTooLarge: self.init(.requestHeaderFieldsTooLarge, code: "INVALID_REQUEST", message: "The request's headers are too large: at most 80 KB")
        case .notAProxy: self.init(.methodNotAllowed, code: "METHOD_NOT_ALLOWED", message: "CONNECT is not supported: this server is not a proxy")
        case .otherClientError(.unauthorized, let message): self = .authenticationRequired(message ?? "Authentication required")
        case .otherClientError(let status, let message): self.init(status, code: "INVALID_REQUEST", message: message ?? status.reasonPhrase)
        }
    }

    /// The answer to Nuvie's own errors; nil for anything else (a bug: 500).
    public static func mapping(_ error: any Error) -> NuvieAPIError? {
        switch error {
        case let error as NuvieAPIError: error
        case let error as NuvieDomainError: mapping(error)
        case let error as RecommendationError: mapping(error)
        // total: a switch over every error type; the engine's refusals are answered by `init(_:)`.
        default: nil
        }
    }

    private static func mapping(_ error: NuvieDomainError) -> NuvieAPIError {
        switch error {
        case .movieNotFound(let movieId): .movieNotFound(movieId)
        case .userNotFound(let userId): .userNotFound("User with ID \(userId) not found")
        case .reviewNotFound(let reviewId): .reviewNotFound(reviewId)
        case .ratingInvalid(let message): .ratingInvalid(message)
        case .invalid(let field, let reason): .validation("\(field) \(reason)", field: field)
        case .friendRequestExists(let from, let to):
            NuvieAPIError(.conflict, code: "FRIEND_REQUEST_EXISTS", message: "A friend request between these users is already pending",
                     details: ["from_user_id": "\(from)", "to_user_id": "\(to)"])
        case .friendRequestNotFound(let from, let to):
            NuvieAPIError(.notFound, code: "FRIEND_REQUEST_NOT_FOUND", message: "No pending friend request from user \(from) to user \(to)",
                     details: ["from_user_id": "\(from)", "to_user_id": "\(to)"])
        case .alreadyFriends(let userId):
            NuvieAPIError(.conflict, code: "ALREADY_FRIENDS", message: "You are already friends with user \(userId)", details: ["user_id": "\(userId)"])
        case .notFriends(let userId):
            NuvieAPIError(.forbidden, code: "NOT_FRIENDS", message: "User \(userId) is not your friend", details: ["user_id": "\(userId)"])
        case .blocked(let userId):
            NuvieAPIError(.forbidden, code: "USER_BLOCKED", message: "You cannot send a friend request to user \(userId)", details: ["user_id": "\(userId)"])
        }
    }

    private static func mapping(_ error: RecommendationError) -> NuvieAPIError {
        switch error {
        case .modelNotReady:
            var answer = NuvieAPIError(.serviceUnavailable, code: "MODEL_NOT_READY", message: error.description)
            answer.headers[.retryAfter] = "5"
            return answer
        case .userNotFound: return .userNotFound(error.description)
        case .movieNotFound(let movieId): return .movieNotFound(movieId)
        case .timeout: return NuvieAPIError(.gatewayTimeout, code: "TIMEOUT", message: error.description)
        case .invalidRequest: return NuvieAPIError(.badRequest, code: "INVALID_REQUEST", message: error.description)
        case .unavailable: return NuvieAPIError(.badGateway, code: "INTERNAL_ERROR", message: error.description)
        }
    }
}
