import EventSourcing
import Foundation

/// Nuvie's event catalog: the engine's `PayloadCatalog` over `payloadTypes` (`NuvieCatalogTests`
/// round-trips one event of every case). An older schema version still in the log stays registered
/// with the upcast that reads it as the current case, so nothing downstream sees it.
public enum NuvieCatalog: PayloadCatalog {
    public typealias Event = NuvieEvent

    public static let payloadTypes: PayloadTypes<NuvieEvent> = [
        PayloadType(MovieAdded.self) { .movieAdded($0) },
        PayloadType(MovieTagged.self) { .movieTagged($0) },
        PayloadType(IdentityClaimed.self) { .identityClaimed($0) },
        PayloadType(UserRegistered.self) { .userRegistered($0) },
        PayloadType(MovieRatedV1.self) { .movieRated($0.upcast) },
        PayloadType(MovieRated.self) { .movieRated($0) },
        PayloadType(ReviewLiked.self) { .reviewLiked($0) },
        PayloadType(ReviewUnliked.self) { .reviewUnliked($0) },
        PayloadType(WatchlistAdded.self) { .watchlistAdded($0) },
        PayloadType(WatchlistRemoved.self) { .watchlistRemoved($0) },
        PayloadType(WatchProgressed.self) { .watchProgressed($0) },
        PayloadType(FriendRequested.self) { .friendRequested($0) },
        PayloadType(FriendRequestAnswered.self) { .friendRequestAnswered($0) },
        PayloadType(FriendRequestCancelled.self) { .friendRequestCancelled($0) },
        PayloadType(FriendRemoved.self) { .friendRemoved($0) },
        PayloadType(UserBlocked.self) { .userBlocked($0) },
        PayloadType(UserUnblocked.self) { .userUnblocked($0) },
        PayloadType(MovieRecommended.self) { .movieRecommended($0) },
        PayloadType(ProfileUpdated.self) { .profileUpdated($0) },
        PayloadType(TermsAccepted.self) { .termsAccepted($0) },
        PayloadType(UserErased.self) { .userErased($0) },
        PayloadType(SessionStarted.self) { .sessionStarted($0) },
        PayloadType(SessionRefreshed.self) { .sessionRefreshed($0) },
        PayloadType(SessionsEnded.self) { .sessionsEnded($0) },
    ]

    public static func actorUserId(of event: NuvieEvent) -> Int64? { event.actorUserId }
    public static func subjectUserIds(of event: NuvieEvent) -> [Int64] { event.subjectUserIds }
    /// Every id derived so far depends on it (`EventIds`): the demo's imported events included.
    public static let eventIdNamespace = "nuvie"
    public static func userErased(_ erasure: UserErased) -> NuvieEvent { .userErased(erasure) }
    public static func erasure(in event: NuvieEvent) -> UserErased? { if case .userErased(let erased) = event { erased } else { nil } }
    public static func readScopes(of event: NuvieEvent) -> ReadScopes { event.readScopes }
    public static func payload(of event: NuvieEvent) -> any EventPayload { event.payload }
}
