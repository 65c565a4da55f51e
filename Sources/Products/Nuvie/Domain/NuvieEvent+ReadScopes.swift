import EventSourcing

extension ReadScope {
    /// One film's page as its viewers read it: the film, its figures, each viewer's own marks on it.
    public static func film(_ movieId: Int64) -> ReadScope { ReadScope(kind: "film", id: movieId) }

    /// The catalog as a whole: its films and how often each is rated (popularity).
    public static let catalog = ReadScope(kind: "catalog", id: 0)
}

extension NuvieEvent {
    /// What folding this event changes: the users it concerns, the film when it concerns one, and the
    /// catalog when it changes its films or their popularity. No default: a new case does not
    /// compile until it says which film it touches.
    public var readScopes: ReadScopes {
        let users = ((actorUserId.map { [$0] } ?? []) + subjectUserIds).map(ReadScope.user)
        switch self {
        case .userErased: return .everything
        case .movieAdded(let added): return .only(users + [.film(added.movieId), .catalog])
        case .movieTagged(let tagged): return .only(users + [.film(tagged.movieId), .catalog])
        case .movieRated(let rated): return .only(users + [.film(rated.movieId), .catalog])
        case .watchlistAdded(let added): return .only(users + [.film(added.movieId)])
        case .watchlistRemoved(let removed): return .only(users + [.film(removed.movieId)])
        case .watchProgressed(let progressed): return .only(users + [.film(progressed.movieId)])
        case .movieRecommended(let recommended): return .only(users + [.film(recommended.movieId)])
        case .identityClaimed, .userRegistered, .reviewLiked, .reviewUnliked, .friendRequested, .friendRequestAnswered,
             .friendRequestCancelled, .friendRemoved, .userBlocked, .userUnblocked, .profileUpdated, .termsAccepted,
             .sessionStarted, .sessionRefreshed, .sessionsEnded:
            return .only(users)
        }
    }
}
