import EventSourcing
import Foundation

/// A user's profile as their `user-{id}` stream has it; none once they are erased. `name` is nil
/// only while the stream is read with the user's key destroyed, which their erasure ends anyway.
public struct ProfileState: Sendable, Equatable {
    public var name: String?
    public var bio: String?
    public var avatarUrl: String?
    public var favoriteGenres: [String]?
    public var acceptedTerms: Set<String> = []
}

/// A `user-{id}` stream folded: the profile, none before the registration or after the erasure.
public struct UserStreamState: EventFold, Equatable {
    public typealias Event = NuvieEvent

    public var profile: ProfileState?

    public init() {}

    public mutating func evolve(_ event: NuvieEvent) {
        switch event {
        case .userRegistered(let e):
            profile = ProfileState(name: e.name, avatarUrl: e.avatarUrl)
        case .profileUpdated(let e):
            profile?.name = e.name
            profile?.bio = e.bio
            profile?.avatarUrl = e.avatarUrl
            profile?.favoriteGenres = e.favoriteGenres
        case .termsAccepted(let e):
            profile?.acceptedTerms.insert(e.termsVersion)
        case .userErased:
            profile = nil
        case .movieAdded, .movieTagged, .identityClaimed, .movieRated, .reviewLiked, .reviewUnliked, .watchlistAdded,
             .watchlistRemoved, .watchProgressed, .friendRequested, .friendRequestAnswered, .friendRequestCancelled,
             .friendRemoved, .userBlocked, .userUnblocked, .movieRecommended, .sessionStarted, .sessionRefreshed, .sessionsEnded:
            break
        }
    }
}

/// A partial update: a field left nil is unchanged; `.clear` removes an optional value.
public struct ProfileChange: Sendable, Equatable {
    public enum Field<Value: Sendable & Equatable>: Sendable, Equatable {
        case set(Value)
        case clear
    }

    public var name: String?
    public var bio: Field<String>?
    public var avatarUrl: Field<String>?
    public var favoriteGenres: Field<[String]>?

    public init(name: String? = nil, bio: Field<String>? = nil, avatarUrl: Field<String>? = nil, favoriteGenres: Field<[String]>? = nil) {
        self.name = name
        self.bio = bio
        self.avatarUrl = avatarUrl
        self.favoriteGenres = favoriteGenres
    }
}

public enum ProfileDecisions {
    public static let maximumNameLength = 100
    public static let maximumBioLength = 500
    public static let maximumFavoriteGenres = 10

    /// `knownGenres` are the catalog's genres; chosen ones are stored with the catalog's spelling.
    /// A change that changes nothing records nothing.
    public static func update(userId: Int64, _ change: ProfileChange, state: ProfileState?, knownGenres: [String]) throws(NuvieDomainError) -> [NuvieEvent] {
        guard let state else { throw .userNotFound(userId: userId) }
        var updated = state
        if let name = change.name {
            let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, trimmed.count <= maximumNameLength else {
                throw .invalid(field: "name", reason: "must be 1 to \(maximumNameLength) characters")
            }
            updated.name = trimmed
        }
        if let bio = change.bio { updated.bio = try value(bio) { bio throws(NuvieDomainError) in
            guard bio.count <= maximumBioLength else { throw .invalid(field: "bio", reason: "must be at most \(maximumBioLength) characters") }
            return bio
        } }
        if let avatar = change.avatarUrl { updated.avatarUrl = try value(avatar) { url throws(NuvieDomainError) in
            guard url.count <= 2048, WebAddress.isHTTP(url) else {
                throw .invalid(field: "avatar_url", reason: "must be an http(s) URL of at most 2048 characters")
            }
            return url
        } }
        if let genres = change.favoriteGenres { updated.favoriteGenres = try value(genres) { genres throws(NuvieDomainError) in
            try canonicalGenres(genres, known: knownGenres)
        } }
        guard updated != state else { return [] }
        return [.profileUpdated(ProfileUpdated(
            userId: userId, name: updated.name, bio: updated.bio, avatarUrl: updated.avatarUrl, favoriteGenres: updated.favoriteGenres
        ))]
    }

    /// Accepting a version already accepted records nothing.
    public static func acceptTerms(userId: Int64, version: String, state: ProfileState?) throws(NuvieDomainError) -> [NuvieEvent] {
        guard let state else { throw .userNotFound(userId: userId) }
        guard (1...32).contains(version.count) else { throw .invalid(field: "version", reason: "must be 1 to 32 characters") }
        return state.acceptedTerms.contains(version) ? [] : [.termsAccepted(TermsAccepted(userId: userId, termsVersion: version))]
    }

    private static func value<V>(_ field: ProfileChange.Field<V>, validate: (V) throws(NuvieDomainError) -> V) throws(NuvieDomainError) -> V? {
        switch field {
        case .set(let value): try validate(value)
        case .clear: nil
        }
    }

    private static func canonicalGenres(_ genres: [String], known: [String]) throws(NuvieDomainError) -> [String] {
        guard genres.count <= maximumFavoriteGenres else {
            throw .invalid(field: "favorite_genres", reason: "must list at most \(maximumFavoriteGenres) genres")
        }
        var chosen: [String] = []
        for genre in genres {
            guard let canonical = known.first(where: { $0.caseInsensitiveCompare(genre) == .orderedSame }) else {
                throw .invalid(field: "favorite_genres", reason: "has an unknown genre: \(genre)")
            }
            if !chosen.contains(canonical) { chosen.append(canonical) }
        }
        return chosen
    }
}
