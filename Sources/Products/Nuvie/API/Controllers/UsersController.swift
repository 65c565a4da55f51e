import ReadModels
import NuvieCommands
import NuvieDomain
import Hummingbird
import ProductHosting
import NuvieProjections

/// Profiles (`GET /users/{user_id}`, `GET`/`PATCH /users/me`, `POST /users/me/terms`), the caller's
/// watchlist, and blocking. A user changes only their own profile: there is no route to another's.
struct UsersController: Sendable {
    let commands: NuvieCommandService
    let users: UserQueries
    let social: SocialQueries
    let movies: MovieQueries
    let readYourWrites: ReadYourWrites

    var endpoints: RouteCollection<NuvieSignedInContext> {
        RouteCollection(context: NuvieSignedInContext.self)
            .get("me", use: me)
            .patch("me", use: updateMe)
            .post("me/terms", use: acceptTerms)
            .get("me/watchlist", use: myWatchlist)
            .get(":user_id", use: show)
            .get(":user_id/watchlist", use: watchlist)
            .post(":user_id/block", use: block)
            .delete(":user_id/block", use: unblock)
    }

    func me(_ request: Request, context: NuvieSignedInContext) async throws -> ProfileDTO {
        try ownProfile(context.userId)
    }

    /// Any of `name`, `bio`, `avatar_url`, `favorite_genres`; `null` clears the optional ones.
    func updateMe(_ request: Request, context: NuvieSignedInContext) async throws -> ProfileDTO {
        let userId = context.userId
        let body = try await JSONBody.decode(request, context: context, fields: ["name", "bio", "avatar_url", "favorite_genres"])
        if body.contains("name"), try body.string("name") == nil { throw NuvieAPIError.validation("name cannot be null", field: "name") }
        let change = ProfileChange(
            name: try body.string("name", maxLength: ProfileDecisions.maximumNameLength * 4),
            bio: try field(body, "bio") { try body.string("bio", maxLength: ProfileDecisions.maximumBioLength) },
            avatarUrl: try field(body, "avatar_url") { try body.string("avatar_url", maxLength: 2048) },
            favoriteGenres: try field(body, "favorite_genres") {
                try body.stringList("favorite_genres", maxCount: ProfileDecisions.maximumFavoriteGenres, maxLength: 64)
            }
        )
        let result = try await commands.updateProfile(
            userId, change, knownGenres: try movies.genres().map(\.name), eventId: try request.eventId(of: NuvieCatalog.self, userId: userId, action: "profile")
        )
        try await readYourWrites.wait(for: result.position)
        return try ownProfile(userId)
    }

    /// `{"version": "2024-01"}`: records that the caller accepted that version of the terms.
    func acceptTerms(_ request: Request, context: NuvieSignedInContext) async throws -> ProfileDTO {
        let userId = context.userId
        let body = try await JSONBody.decode(request, context: context, fields: ["version"])
        let version = try body.requiredString("version", maxLength: 32)
        let result = try await commands.acceptTerms(userId, version: version, eventId: try request.eventId(of: NuvieCatalog.self, userId: userId, action: "terms"))
        try await readYourWrites.wait(for: result.position)
        return try ownProfile(userId)
    }

    /// Another user's profile, or the caller's own. A user who blocked the caller is not found.
    func show(_ request: Request, context: NuvieSignedInContext) async throws -> ProfileDTO {
        let viewer = context.userId
        let userId = try context.parameters.id("user_id")
        if userId == viewer { return try ownProfile(viewer) }
        let relationship = try social.relationship(of: viewer, to: userId)
        guard relationship != .blockedBy, let profile = try users.profile(id: userId) else {
            throw NuvieAPIError.userNotFound("User with ID \(userId) not found")
        }
        return ProfileDTO(profile, relationship: relationship, mutualFriends: try social.mutualFriends(viewer, userId))
    }

    func myWatchlist(_ request: Request, context: NuvieSignedInContext) async throws -> ListResponse<MovieSummaryDTO> {
        try watchlist(of: context.userId, request)
    }

    /// A watchlist is private: only its owner may read it.
    func watchlist(_ request: Request, context: NuvieSignedInContext) async throws -> ListResponse<MovieSummaryDTO> {
        let viewer = context.userId
        guard try context.parameters.id("user_id") == viewer else { throw NuvieAPIError.forbidden("A watchlist is visible only to its owner") }
        return try watchlist(of: viewer, request)
    }

    func block(_ request: Request, context: NuvieSignedInContext) async throws -> SuccessResponse {
        try await JSONBody.none(request, context: context)
        let viewer = context.userId
        let userId = try context.parameters.id("user_id")
        return try await readYourWrites.success(commands.block(userId, by: viewer, eventId: try request.eventId(of: NuvieCatalog.self, userId: viewer, action: "block:\(userId)")))
    }

    func unblock(_ request: Request, context: NuvieSignedInContext) async throws -> SuccessResponse {
        try await JSONBody.none(request, context: context)
        let viewer = context.userId
        let userId = try context.parameters.id("user_id")
        return try await readYourWrites.success(commands.unblock(userId, by: viewer, eventId: try request.eventId(of: NuvieCatalog.self, userId: viewer, action: "unblock:\(userId)")))
    }

    private func ownProfile(_ userId: Int64) throws -> ProfileDTO {
        guard let profile = try users.profile(id: userId) else { throw NuvieAPIError.userNotFound("User with ID \(userId) not found") }
        return ProfileDTO(profile, relationship: nil, mutualFriends: nil)
    }

    private func watchlist(of userId: Int64, _ request: Request) throws -> ListResponse<MovieSummaryDTO> {
        let page = try Pagination(request)
        let found = try movies.watchlist(userId: userId, limit: page.limit, offset: page.offset)
        return ListResponse(key: "movies", items: found.items.map(MovieSummaryDTO.init), totalCount: found.totalCount, page: page)
    }

    /// A PATCH field: absent → unchanged, `null` → cleared, a value → set.
    private func field<V: Sendable & Equatable>(_ body: JSONBody, _ name: String, _ read: () throws -> V?) throws -> ProfileChange.Field<V>? {
        guard body.contains(name) else { return nil }
        return try read().map { .set($0) } ?? .clear
    }
}
