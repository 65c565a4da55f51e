import ReadModels
import HTTPServing
import EventLog
import EventSourcing
import Hummingbird
import NIOCore
import NIOHTTP1
import ProductHosting
import SavryDomain

extension SavryAPIError: ContractError {
    /// The response for any error a handler or middleware throws; nil when it is unexpected (a bug: 500).
    public static func mapping(_ error: any Error) -> SavryAPIError? {
        switch error {
        case let error as SavryAPIError:
            return error
        case let error as SavryDomainError:
            return mapping(error)
        case let error as OperatorRequestError:
            return mapping(error)
        case is ReadModelsBehind:
            return .projectionsBehind()
        case let error as InvalidIdempotencyKey:
            return .badRequest(error.description)
        case EventLogError.wrongExpectedVersion, CommandError.tooMuchContention:
            return SavryAPIError(.conflict, "The recipe changed while the request ran; retry it")
        case EventLogError.partialDuplicate, EventLogError.eventIdReused:
            return SavryAPIError(.unprocessableContent, "This Idempotency-Key was already used for a different request; use a new key for a new request")
        case is StorageFullError:
            return .storageFull()
        case EventLogError.readOnly:
            return SavryAPIError(.methodNotAllowed, "This server shows a past state of the log and records nothing")
        case let error as HTTPError:
            return mapping(error)
        case is NIOTooManyBytesError:
            return SavryAPIError(.contentTooLarge, "Request body is too large")
        case is HTTPParserError:
            var error = SavryAPIError(.badRequest, "The request is not well-formed HTTP")
            error.headers[.connection] = "close"
            return error
        default:
            return nil
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

    private static func mapping(_ error: OperatorRequestError) -> SavryAPIError {
        switch error {
        case .invalid(let message, _): .badRequest(message)
        case .conflict(let message): SavryAPIError(.conflict, message)
        case .notFound(let message): SavryAPIError(.notFound, message)
        case .unsupportedMediaType(let message): SavryAPIError(.unsupportedMediaType, message)
        }
    }

    private static func mapping(_ error: HTTPError) -> SavryAPIError {
        switch error.status {
        case .notFound: SavryAPIError(.notFound, "Not found: no such endpoint")
        case .contentTooLarge: SavryAPIError(.contentTooLarge, "Request body is too large")
        case .methodNotAllowed: SavryAPIError(.methodNotAllowed, "Method not allowed on this endpoint")
        case let status where (400..<500).contains(status.code): SavryAPIError(status, error.body ?? status.reasonPhrase)
        default: .internalError
        }
    }
}
