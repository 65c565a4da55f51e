import EventSourcing
import Foundation

/// Nuvie's event catalog: maps domain events to their wire form (type name, schema version, JSON)
/// and back. Older schema versions still in the log are upcast to the current shape here, so
/// nothing downstream sees them.
public enum EventCodec: EventCatalog {
    public typealias Event = DomainEvent

    /// Every payload the log may hold, each with the case it is read back as: the one list both
    /// directions go by. `encode` refuses a payload that is not here (so the log never holds an
    /// event it cannot read back); `EventCodecTests` round-trips a sample of every case through it.
    static let registered: [Registration] = [
        Registration(MovieAdded.self, as: DomainEvent.movieAdded),
        Registration(MovieTagged.self, as: DomainEvent.movieTagged),
        Registration(IdentityClaimed.self, as: DomainEvent.identityClaimed),
        Registration(UserRegistered.self, as: DomainEvent.userRegistered),
        Registration(MovieRatedV1.self, as: { .movieRated($0.upcast) }),
        Registration(MovieRated.self, as: DomainEvent.movieRated),
        Registration(ReviewLiked.self, as: DomainEvent.reviewLiked),
        Registration(ReviewUnliked.self, as: DomainEvent.reviewUnliked),
        Registration(WatchlistAdded.self, as: DomainEvent.watchlistAdded),
        Registration(WatchlistRemoved.self, as: DomainEvent.watchlistRemoved),
        Registration(WatchProgressed.self, as: DomainEvent.watchProgressed),
        Registration(FriendRequested.self, as: DomainEvent.friendRequested),
        Registration(FriendRequestAnswered.self, as: DomainEvent.friendRequestAnswered),
        Registration(FriendRequestCancelled.self, as: DomainEvent.friendRequestCancelled),
        Registration(FriendRemoved.self, as: DomainEvent.friendRemoved),
        Registration(UserBlocked.self, as: DomainEvent.userBlocked),
        Registration(UserUnblocked.self, as: DomainEvent.userUnblocked),
        Registration(MovieRecommended.self, as: DomainEvent.movieRecommended),
        Registration(ProfileUpdated.self, as: DomainEvent.profileUpdated),
        Registration(TermsAccepted.self, as: DomainEvent.termsAccepted),
        Registration(UserErased.self, as: DomainEvent.userErased),
        Registration(SessionStarted.self, as: DomainEvent.sessionStarted),
        Registration(SessionRefreshed.self, as: DomainEvent.sessionRefreshed),
        Registration(SessionsEnded.self, as: DomainEvent.sessionsEnded),
    ]

    public static func actorUserId(of event: DomainEvent) -> Int64? { event.actorUserId }
    public static func subjectUserIds(of event: DomainEvent) -> [Int64] { event.subjectUserIds }
    public static let eventIdNamespace = "nuvie"
    public static func userErased(_ erasure: UserErased) -> DomainEvent { .userErased(erasure) }

    public enum DecodingFailure: Error, Equatable, Sendable {
        case unknownType(String, schemaVersion: UInt16)
    }

    public enum EncodingFailure: Error, Equatable, Sendable {
        /// The payload's wire name and version are missing from `EventCodec.registered`.
        case unregistered(String, schemaVersion: UInt16)
    }

    public static func encode(_ event: DomainEvent, with encoder: JSONEncoder) throws -> EncodedEvent {
        try encoded(event.payload, with: encoder)
    }

    public static func decode(type: String, schemaVersion: UInt16, payload: Data, with decoder: JSONDecoder) throws -> DomainEvent {
        guard let registration = byWireName[WireName(type: type, schemaVersion: schemaVersion)] else {
            throw DecodingFailure.unknownType(type, schemaVersion: schemaVersion)
        }
        return try registration.decode(payload, decoder)
    }

    private static func encoded<Payload: DomainEventPayload>(_ payload: Payload, with encoder: JSONEncoder) throws -> EncodedEvent {
        guard byWireName[WireName(type: Payload.typeName, schemaVersion: Payload.schemaVersion)] != nil else {
            throw EncodingFailure.unregistered(Payload.typeName, schemaVersion: Payload.schemaVersion)
        }
        return EncodedEvent(type: Payload.typeName, schemaVersion: Payload.schemaVersion, payload: try encoder.encode(payload))
    }

    private static let byWireName = Dictionary(registered.map { ($0.wireName, $0) }, uniquingKeysWith: { first, _ in first })
}

extension EventCodec {
    /// A wire name and schema version: what the log records of an event's kind.
    struct WireName: Hashable {
        var type: String
        var schemaVersion: UInt16
    }

    /// One payload the log may hold and the case it becomes when read back.
    struct Registration: Sendable {
        let wireName: WireName
        let decode: @Sendable (Data, JSONDecoder) throws -> DomainEvent

        init<Payload: EventPayload>(_ payload: Payload.Type, as event: @escaping @Sendable (Payload) -> DomainEvent) {
            wireName = WireName(type: Payload.typeName, schemaVersion: Payload.schemaVersion)
            decode = { event(try $1.decode(Payload.self, from: $0)) }
        }
    }
}
