import Hummingbird
import NuvieDomain
import NuvieRecommendations
import ProductHosting

extension NuvieAPIError: ContractError {
    public init(_ refusal: EngineRefusal) {
        self.init(refusal.status, code: refusal.code.uppercased(), message: refusal.message, details: Self.details(refusal))
        headers = refusal.headers
    }

    private static func details(_ refusal: EngineRefusal) -> [String: String] {
        switch refusal {
        case .idempotencyKeyReused: ["header": "Idempotency-Key"]
        case .invalidIdempotencyKey: ["field": "Idempotency-Key"]
        case .operatorRequest(.invalid(_, let field)): field.map { ["field": $0] } ?? [:]
        case .readModelsBehind(let position), .notCaughtUp(let position): ["position": "\(position)"]
        case .conflict, .storageFull, .logUnreachable, .readOnly, .shuttingDown, .operatorRequest, .signInUnavailable, .noSuchRoute, .methodNotAllowed, .bodyTooLarge,
             .malformedHTTP, .headersTooLarge, .hostHeader, .notAProxy, .otherClientError:
            [:]
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
