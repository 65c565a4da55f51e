import ReadModels
import NuvieCommands
import NuvieDomain
import Hummingbird
import ProductHosting
import NuvieProjections

/// `GET /friends` (friends, pending requests, blocked users, and suggestions), friend requests and unfriending.
/// `:user_id` in a request route is the other user: the one who sent it (accept, decline) or was sent it (cancel).
struct FriendsController: Sendable {
    let commands: NuvieCommandService
    let social: SocialQueries
    let readYourWrites: ReadYourWrites

    var endpoints: RouteCollection<NuvieSignedInContext> {
        RouteCollection(context: NuvieSignedInContext.self)
            .get(use: list)
            .get("requests", use: requests)
            .post("requests", use: sendRequest)
            .post("requests/:user_id/accept", use: accept)
            .post("requests/:user_id/decline", use: decline)
            .delete("requests/:user_id", use: cancel)
            .delete(":user_id", use: unfriend)
    }

    func list(_ request: Request, context: NuvieSignedInContext) async throws -> FriendsResponse {
        let userId = context.userId
        return FriendsResponse(
            friends: try social.friends(of: userId).map(FriendDTO.init),
            suggestions: try social.suggestions(for: userId).map(SuggestionDTO.init)
        )
    }

    /// `?direction=incoming` (default) or `outgoing`, paginated. Only the caller's own requests.
    func requests(_ request: Request, context: NuvieSignedInContext) async throws -> ListResponse<FriendRequestDTO> {
        let userId = context.userId
        let page = try Pagination(request)
        let raw = try request.queryText("direction") ?? "incoming"
        guard let direction = FriendItem.Direction(rawValue: raw) else {
            throw NuvieAPIError.validation("direction must be incoming or outgoing", field: "direction")
        }
        let found = try social.requests(of: userId, direction: direction, limit: page.limit, offset: page.offset)
        return ListResponse(key: "requests", items: found.items.map(FriendRequestDTO.init), totalCount: found.totalCount, page: page)
    }

    /// `{"user_id": 5}` → 201 with the pending request.
    func sendRequest(_ request: Request, context: NuvieSignedInContext) async throws -> EditedResponse<FriendRequestDTO> {
        let userId = context.userId
        let body = try await JSONBody.decode(request, context: context, fields: ["user_id"])
        guard let otherId = try body.integer("user_id", orThrow: invalidUserId), otherId > 0 else { throw invalidUserId }
        let result = try await commands.requestFriend(Int64(otherId), by: userId, eventId: try request.eventId(of: NuvieCatalog.self, userId: userId, action: "friend-request:\(otherId)"))
        try await readYourWrites.wait(for: result.position)
        guard let sent = try social.request(from: userId, to: Int64(otherId)) else { throw NuvieAPIError.changedSince(position: result.position) }
        return EditedResponse(status: .created, response: FriendRequestDTO(sent))
    }

    func accept(_ request: Request, context: NuvieSignedInContext) async throws -> FriendDTO {
        try await JSONBody.none(request, context: context)
        let (userId, requesterId) = try ids(context)
        let result = try await commands.answerFriendRequest(.accepted, from: requesterId, by: userId, eventId: try request.eventId(of: NuvieCatalog.self, userId: userId, action: "friend-accept:\(requesterId)"))
        try await readYourWrites.wait(for: result.position)
        guard let friend = try social.friends(of: userId).first(where: { $0.userId == requesterId && $0.status == .accepted }) else {
            throw NuvieAPIError.changedSince(position: result.position)
        }
        return FriendDTO(friend)
    }

    func decline(_ request: Request, context: NuvieSignedInContext) async throws -> SuccessResponse {
        try await JSONBody.none(request, context: context)
        let (userId, requesterId) = try ids(context)
        return try await readYourWrites.success(commands.answerFriendRequest(.declined, from: requesterId, by: userId, eventId: try request.eventId(of: NuvieCatalog.self, userId: userId, action: "friend-decline:\(requesterId)")))
    }

    func cancel(_ request: Request, context: NuvieSignedInContext) async throws -> SuccessResponse {
        try await JSONBody.none(request, context: context)
        let (userId, otherId) = try ids(context)
        return try await readYourWrites.success(commands.cancelFriendRequest(to: otherId, by: userId, eventId: try request.eventId(of: NuvieCatalog.self, userId: userId, action: "friend-cancel:\(otherId)")))
    }

    func unfriend(_ request: Request, context: NuvieSignedInContext) async throws -> SuccessResponse {
        try await JSONBody.none(request, context: context)
        let (userId, otherId) = try ids(context)
        return try await readYourWrites.success(commands.unfriend(otherId, by: userId, eventId: try request.eventId(of: NuvieCatalog.self, userId: userId, action: "unfriend:\(otherId)")))
    }

    private var invalidUserId: NuvieAPIError { .validation("user_id must be a positive integer", field: "user_id") }

    private func ids(_ context: NuvieSignedInContext) throws -> (userId: Int64, otherId: Int64) {
        (context.userId, try context.parameters.id("user_id"))
    }
}
