import ReadModels
import HTTPServing
import NuvieCommands
import NuvieDomain
import Hummingbird
import NIOCore
import NIOHTTP1
import NuvieRecommendations
import ProductHosting

extension APIError: ContractError {
    /// The response for any error a handler throws; nil when it is unexpected (a bug: 500).
    public static func mapping(_ error: any Error) -> APIError? {
        if let refusal = WriteRefusal(error) { return mapping(refusal) }
        switch error {
        case let error as APIError:
            return error
        case let error as DomainError:
            return mapping(error)
        case let error as RecommendationError:
            return mapping(error)
        case let error as OperatorRequestError:
            return mapping(error)
        case let error as ReadModelsBehind:
            return .projectionsBehind(position: error.position)
        case let error as InvalidIdempotencyKey:
            return .validation(error.description, field: "Idempotency-Key")
        case let error as HTTPError:
            return mapping(error)
        case is NIOTooManyBytesError:
            return mapping(HTTPError(.contentTooLarge))
        case is HTTPParserError:
            return .malformedRequest
        default:
            return nil
        }
    }

    private static func mapping(_ error: DomainError) -> APIError {
        switch error {
        case .movieNotFound(let movieId): .movieNotFound(movieId)
        case .userNotFound(let userId): .userNotFound("User with ID \(userId) not found")
        case .reviewNotFound(let reviewId): .reviewNotFound(reviewId)
        case .ratingInvalid(let message): .ratingInvalid(message)
        case .invalid(let field, let reason): .validation("\(field) \(reason)", field: field)
        case .friendRequestExists(let from, let to):
            APIError(.conflict, code: "FRIEND_REQUEST_EXISTS", message: "A friend request between these users is already pending",
                     details: ["from_user_id": "\(from)", "to_user_id": "\(to)"])
        case .friendRequestNotFound(let from, let to):
            APIError(.notFound, code: "FRIEND_REQUEST_NOT_FOUND", message: "No pending friend request from user \(from) to user \(to)",
                     details: ["from_user_id": "\(from)", "to_user_id": "\(to)"])
        case .alreadyFriends(let userId):
            APIError(.conflict, code: "ALREADY_FRIENDS", message: "You are already friends with user \(userId)", details: ["user_id": "\(userId)"])
        case .notFriends(let userId):
            APIError(.forbidden, code: "NOT_FRIENDS", message: "User \(userId) is not your friend", details: ["user_id": "\(userId)"])
        case .blocked(let userId):
            APIError(.forbidden, code: "USER_BLOCKED", message: "You cannot send a friend request to user \(userId)", details: ["user_id": "\(userId)"])
        }
    }

    private static func mapping(_ error: OperatorRequestError) -> APIError {
        switch error {
        case .invalid(let message, let field): .validation(message, field: field)
        case .conflict(let message): .conflict(message)
        case .notFound(let message): .userNotFound(message)
        case .unsupportedMediaType(let message): APIError(.unsupportedMediaType, code: "UNSUPPORTED_MEDIA_TYPE", message: message)
        }
    }

    private static func mapping(_ refusal: WriteRefusal) -> APIError {
        switch refusal {
        case .conflict: .conflict("The resource changed while the request ran; retry it")
        case .idempotencyKeyReused: .idempotencyKeyReused
        case .storageFull: .storageFull()
        case .readOnly: APIError(.methodNotAllowed, code: "METHOD_NOT_ALLOWED", message: "This server shows a past state of the log and records nothing")
        }
    }

    private static func mapping(_ error: RecommendationError) -> APIError {
        switch error {
        case .modelNotReady:
            var answer = APIError(.serviceUnavailable, code: "MODEL_NOT_READY", message: error.description)
            answer.headers[.retryAfter] = "5"
            return answer
        case .userNotFound: return .userNotFound(error.description)
        case .movieNotFound(let movieId): return .movieNotFound(movieId)
        case .timeout: return APIError(.gatewayTimeout, code: "TIMEOUT", message: error.description)
        case .invalidRequest: return APIError(.badRequest, code: "INVALID_REQUEST", message: error.description)
        case .unavailable: return APIError(.badGateway, code: "INTERNAL_ERROR", message: error.description)
        }
    }

    private static func mapping(_ error: HTTPError) -> APIError {
        switch error.status {
        case .notFound: APIError(.notFound, code: "NOT_FOUND", message: "No such endpoint")
        case .contentTooLarge: APIError(.contentTooLarge, code: "PAYLOAD_TOO_LARGE", message: "Request body is too large")
        case .methodNotAllowed: APIError(.methodNotAllowed, code: "METHOD_NOT_ALLOWED", message: "Method not allowed on this endpoint")
        case .unauthorized: .authenticationRequired(error.body ?? "Authentication required")
        case let status where (400..<500).contains(status.code):
            APIError(status, code: "INVALID_REQUEST", message: error.body ?? status.reasonPhrase)
        default: .internalError
        }
    }
}
