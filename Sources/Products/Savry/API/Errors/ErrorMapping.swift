import Hummingbird
import ProductHosting
import SavryDomain

extension SavryAPIError: ContractError {
    public init(_ refusal: EngineRefusal) {
        switch refusal {
        case .conflict: self.init(.conflict, "The recipe changed while the request ran; retry it")
        case .idempotencyKeyReused:
            self.init(.unprocessableContent, "This Idempotency-Key was already used for a different request; use a new key for a new request")
        case .invalidIdempotencyKey(let message): self.init(.badRequest, message)
        case .storageFull: self = .storageFull()
        case .logUnreachable(let outcomeUnknown): self = .logUnreachable(outcomeUnknown: outcomeUnknown)
        case .readOnly: self.init(.methodNotAllowed, "This server shows a past state of the log and records nothing")
        case .readModelsBehind: self = .projectionsBehind()
        case .notCaughtUp:
            self.init(.serviceUnavailable, "This server has not yet caught up with X-Min-Position; nothing was done, retry shortly")
            headers[.retryAfter] = "1"
        case .shuttingDown: self = .shuttingDown
        case .operatorRequest(.invalid(let message, _)): self.init(.badRequest, message)
        case .operatorRequest(.conflict(let message)): self.init(.conflict, message)
        case .operatorRequest(.notFound(let message)): self.init(.notFound, message)
        case .operatorRequest(.unsupportedMediaType(let message)): self.init(.unsupportedMediaType, message)
        case .noSuchRoute: self.init(.notFound, "Not found: no such endpoint")
        case .methodNotAllowed: self.init(.methodNotAllowed, "Method not allowed on this endpoint")
        case .bodyTooLarge(let limit): self.init(.contentTooLarge, "Request body is too large" + (limit.map { ": at most \($0 >> 10) KB" } ?? ""))
        case .malformedHTTP:
            self.init(.badRequest, "The request is not well-formed HTTP")
            headers[.connection] = "close"
        case .headersTooLarge: self.init(.requestHeaderFieldsTooLarge, "The request's headers are too large: at most 80 KB")
        case .notAProxy: self.init(.methodNotAllowed, "CONNECT is not supported: this server is not a proxy")
        case .otherClientError(let status, let message): self.init(status, message ?? status.reasonPhrase)
        }
    }

    /// The answer to Savry's own errors; nil for anything else (a bug: 500).
    public static func mapping(_ error: any Error) -> SavryAPIError? {
        switch error {
        case let error as SavryAPIError: error
        case let error as SavryDomainError: mapping(error)
        // total: a switch over every error type; the engine's refusals are answered by `init(_:)`.
        default: nil
        }
    }

    private static func mapping(_ error: SavryDomainError) -> SavryAPIError {
        switch error {
        case .recipeNotFound(let recipeId): .recipeNotFound(recipeId)
        case .notOwner: .forbidden
        // Only a token for a user since gone (erased while the request ran) could get here: the
        // token no longer opens anything.
        case .userNotFound: .unauthorized("Unauthorized: this token's user is not registered")
        case .recipeExists: SavryAPIError(.conflict, "A recipe with this id already exists")
        case .invalid(let field, let reason): .badRequest("\(field) \(reason)")
        }
    }
}
