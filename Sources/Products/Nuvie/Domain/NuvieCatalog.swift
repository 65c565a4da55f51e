import EventSourcing
import Foundation

/// Nuvie's event catalog: maps domain events to their wire form (type name, schema version, JSON)
/// and back. Older schema versions still in the log are upcast to the current shape here, so
/// nothing downstream sees them.
public enum NuvieCatalog: EventCatalog {
    public typealias Event = NuvieEvent

    /// Every payload the log may hold, each with the case it is read back as: the one list both
    /// directions go by. `encode` refuses a payload that is not here (so the log never holds an
    /// event it cannot read back); `NuvieCatalogTests` round-trips a sample of every case through it.
    static let registered: [Registration] = [
        Registration(MovieAdded.self, as: NuvieEvent.movieAdded),
        Registration(MovieTagged.self, as: NuvieEvent.movieTagged),
        Registration(IdentityClaimed.self, as: NuvieEvent.identityClaimed),
        Registration(UserRegistered.self, as: NuvieEvent.userRegistered),
        Registration(MovieRatedV1.self, as: { .movieRated($0.upcast) }),
        Registration(MovieRated.self, as: NuvieEvent.movieRated),
        Registration(ReviewLiked.self, as: NuvieEvent.reviewLiked),
        Registration(ReviewUnliked.self, as: NuvieEvent.reviewUnliked),
        Registration(WatchlistAdded.self, as: NuvieEvent.watchlistAdded),
        Registration(WatchlistRemoved.self, as: NuvieEvent.watchlistRemoved),
        Registration(WatchProgressed.self, as: NuvieEvent.watchProgressed),
        Registration(FriendRequested.self, as: NuvieEvent.friendRequested),
        Registration(FriendRequestAnswered.self, as: NuvieEvent.friendRequestAnswered),
        Registration(FriendRequestCancelled.self, as: NuvieEvent.friendRequestCancelled),
        Registration(FriendRemoved.self, as: NuvieEvent.friendRemoved),
        Registration(UserBlocked.self, as: NuvieEvent.userBlocked),
        Registration(UserUnblocked.self, as: NuvieEvent.userUnblocked),
        Registration(MovieRecommended.self, as: NuvieEvent.movieRecommended),
        Registration(ProfileUpdated.self, as: NuvieEvent.profileUpdated),
        Registration(TermsAccepted.self, as: NuvieEvent.termsAccepted),
        Registration(UserErased.self, as: NuvieEvent.userErased),
        Registration(SessionStarted.self, as: NuvieEvent.sessionStarted),
        Registration(SessionRefreshed.self, as: NuvieEvent.sessionRefreshed),
        Registration(SessionsEnded.self, as: NuvieEvent.sessionsEnded),
    ]

    public static func actorUserId(of event: NuvieEvent) -> Int64? { event.actorUserId }
    public static func subjectUserIds(of event: NuvieEvent) -> [Int64] { event.subjectUserIds }
    public static let eventIdNamespace = "nuvie"
    public static func userErased(_ erasure: UserErased) -> NuvieEvent { .userErased(erasure) }

    public enum DecodingFailure: Error, Equatable, Sendable {
        case unknownType(String, schemaVersion: UInt16)
    }

    public enum EncodingFailure: Error, Equatable, Sendable {
        /// The payload's wire name and version are missing from `NuvieCatalog.registered`.
        case unregistered(String, schemaVersion: UInt16)
    }

    public static func encode(_ event: NuvieEvent, with encoder: JSONEncoder) throws -> EncodedEvent {
        try encoded(event.payload, with: encoder)
    }

    public static func decode(type: String, schemaVersion: UInt16, payload: Data, with decoder: JSONDecoder) throws -> NuvieEvent {
        guard let registration = byWireName[WireName(type: type, schemaVersion: schemaVersion)] else {
            throw DecodingFailure.unknownType(type, schemaVersion: schemaVersion)
        }
        return try registration.decode(payload, decoder)
    }

    private static func encoded<Payload: NuvieEventPayload>(_ payload: Payload, with encoder: JSONEncoder) throws -> EncodedEvent {
        guard byWireName[WireName(type: Payload.typeName, schemaVersion: Payload.schemaVersion)] != nil else {
            throw EncodingFailure.unregistered(Payload.typeName, schemaVersion: Payload.schemaVersion)
        }
        return EncodedEvent(type: Payload.typeName, schemaVersion: Payload.schemaVersion, payload: try encoder.encode(payload))
    }

    private static let byWireName = Dictionary(registered.map { ($0.wireName, $0) }, uniquingKeysWith: { first, _ in first })
}

extension NuvieCatalog {
    /// A wire name and schema version: what the log records of an event's kind.
    struct WireName: Hashable {
        var type: String
        var schemaVersion: UInt16
    }

    /// One payload the log may hold and the case it becomes when read back.
    struct Registration: Sendable {
        let wireName: WireName
        let decode: @Sendable (Data, JSONDecoder) throws -> NuvieEvent

        init<Payload: EventPayload>(_ payload: Payload.Type, as event: @escaping @Sendable (Payload) -> NuvieEvent) {
            wireName = WireName(type: Payload.typeName, schemaVersion: Payload.schemaVersion)
            decode = { event(try $1.decode(Payload.self, from: $0)) }
        }
    }
}
