import Hummingbird
import ProductHosting
import SavryDomain

extension SavryAPIError: ContractError {
    public init(_ refusal: EngineRefusal) {
        self.init(refusal.status, refusal.message)
        headers = refusal.headers
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
