import EventSourcing
import Foundation
import Hummingbird
import NuvieCommands
import NuvieProjections
import NuvieRecommendations
import ProductHosting
import ReadModels

/// The engine's account deletion and export over Nuvie's stores, with the recommendation lists an
/// erasure must not leave cached.
public struct Accounts: Sendable {
    public var engine: UserAccounts<NuvieProduct>
    /// Holds each user's last recommendation list, their friends' names in its reasons.
    public var recommendationCache: RecommendationFeedCache

    public init(_ engine: UserAccounts<NuvieProduct>, recommendationCache: RecommendationFeedCache) {
        self.engine = engine
        self.recommendationCache = recommendationCache
    }

    /// Erases `userId` (answering once the read models show it) and drops their cached tokens and
    /// every cached recommendation list (a friend's may name them).
    public func erase(_ userId: Int64, initiator: UserErased.Initiator, tokens: NuvieTokens) async throws -> UInt64 {
        // Whatever happens after the key is destroyed (read models slow to show it, say), nothing of
        // the user's stays cached.
        do {
            let position = try await engine.erase(userId, initiator: initiator)
            await forgetCached(userId, tokens: tokens)
            return position
        } catch {
            await forgetCached(userId, tokens: tokens)
            throw error
        }
    }

    private func forgetCached(_ userId: Int64, tokens: NuvieTokens) async {
        tokens.forget(userId: userId)
        try? await recommendationCache.forgetEveryone()
    }
}

/// `DELETE /users/me` erases the caller's account (App Store Review Guideline 5.1.1(v), GDPR Art.
/// 17): it needs a sign-in of the last ten minutes, then answers 204, and every token of the account
/// is refused from then on. `GET /users/me/export` answers everything held about the caller
/// (GDPR Art. 15 and 20), streamed: their profile, then every event of theirs, decrypted.
struct AccountController: Sendable {
    static let reauthenticationWindow: TimeInterval = 600

    let accounts: Accounts
    let users: UserQueries
    let tokens: NuvieTokens

    var endpoints: RouteCollection<NuvieSignedInContext> {
        RouteCollection(context: NuvieSignedInContext.self)
            .delete(use: delete)
            .get("export", use: export)
    }

    func delete(_ request: Request, context: NuvieSignedInContext) async throws -> HTTPResponse.Status {
        try await JSONBody.none(request, context: context)
        guard Date().timeIntervalSince(context.grant.authenticatedAt) <= Self.reauthenticationWindow else {
            throw NuvieAPIError(
                .unauthorized, code: "REAUTHENTICATION_REQUIRED",
                message: "Deleting the account needs a sign-in of the last 10 minutes: sign in again (POST /auth/login), then retry"
            )
        }
        do {
            _ = try await accounts.erase(context.userId, initiator: .user, tokens: tokens)
        } catch UserErasureFailure.alreadyErased, UserErasureFailure.unknownUser {
            // Another request erased the account first: this token's user is gone, as after any erasure.
            throw NuvieAPIError.tokenRefused
        }
        return .noContent
    }

    func export(_ request: Request, context: NuvieSignedInContext) async throws -> Response {
        guard let profile = try users.profile(id: context.userId) else { throw NuvieAPIError.userNotFound("User with ID \(context.userId) not found") }
        let account = try NuvieJSON.encoder().encode(ProfileDTO(profile, relationship: nil, mutualFriends: nil))
        return accounts.engine.export.response(for: context.userId, account: account, timestamp: NuvieJSON.timestamp)
    }
}
