import ReadModels
import EventSourcing
import NuvieCommands
import Hummingbird
import NuvieDomain
import ProductHosting
import NuvieProjections

/// `POST` and `DELETE /reviews/{review_id}/like`. Both are idempotent: liking twice is one like.
struct ReviewsController: Sendable {
    let commands: NuvieCommandService
    let reviews: ReviewQueries
    let readYourWrites: ReadYourWrites

    var endpoints: RouteCollection<NuvieSignedInContext> {
        RouteCollection(context: NuvieSignedInContext.self)
            .post(":review_id/like", use: like)
            .delete(":review_id/like", use: unlike)
    }

    func like(_ request: Request, context: NuvieSignedInContext) async throws -> LikeResponse {
        try await JSONBody.none(request, context: context)
        let userId = context.userId
        let reviewId = try context.parameters.id("review_id")
        let result = try await commands.likeReview(reviewId, by: userId, eventId: try request.eventId(of: NuvieCatalog.self, userId: userId, action: "like:\(reviewId)"))
        return try await answer(reviewId, userId, after: result)
    }

    func unlike(_ request: Request, context: NuvieSignedInContext) async throws -> LikeResponse {
        try await JSONBody.none(request, context: context)
        let userId = context.userId
        let reviewId = try context.parameters.id("review_id")
        let result = try await commands.unlikeReview(reviewId, by: userId, eventId: try request.eventId(of: NuvieCatalog.self, userId: userId, action: "unlike:\(reviewId)"))
        return try await answer(reviewId, userId, after: result)
    }

    private func answer(_ reviewId: Int64, _ userId: Int64, after result: CommandResult) async throws -> LikeResponse {
        try await readYourWrites.wait(for: result.position)
        guard let review = try reviews.review(id: reviewId, viewer: userId) else { throw NuvieAPIError.reviewNotFound(reviewId) }
        return LikeResponse(reviewId: reviewId, likes: review.likes, userLiked: review.viewerLiked)
    }
}
