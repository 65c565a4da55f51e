import EventSourcing
import Foundation

/// Nuvie's event catalog: maps domain events to their wire form (type name, schema version, JSON)
/// and back. Older schema versions still in the log are upcast to the current shape here, so
/// nothing downstream sees them.
public enum EventCodec: EventCatalog {
    public typealias Event = DomainEvent

    public static func actorUserId(of event: DomainEvent) -> Int64? { event.actorUserId }
    public static func subjectUserIds(of event: DomainEvent) -> [Int64] { event.subjectUserIds }
    public static let eventIdNamespace = "nuvie"

    public enum DecodingFailure: Error, Equatable, Sendable {
        case unknownType(String, schemaVersion: UInt16)
    }

    public static func encode(_ event: DomainEvent) throws -> EncodedEvent {
        switch event {
        case .movieAdded(let e): try encoded(e)
        case .movieTagged(let e): try encoded(e)
        case .identityClaimed(let e): try encoded(e)
        case .userRegistered(let e): try encoded(e)
        case .movieRated(let e): try encoded(e)
        case .reviewLiked(let e): try encoded(e)
        case .reviewUnliked(let e): try encoded(e)
        case .watchlistAdded(let e): try encoded(e)
        case .watchlistRemoved(let e): try encoded(e)
        case .watchProgressed(let e): try encoded(e)
        case .friendRequested(let e): try encoded(e)
        case .friendRequestAnswered(let e): try encoded(e)
        case .friendRequestCancelled(let e): try encoded(e)
        case .friendRemoved(let e): try encoded(e)
        case .userBlocked(let e): try encoded(e)
        case .userUnblocked(let e): try encoded(e)
        case .movieRecommended(let e): try encoded(e)
        case .profileUpdated(let e): try encoded(e)
        case .termsAccepted(let e): try encoded(e)
        }
    }

    public static func decode(type: String, schemaVersion: UInt16, payload: Data) throws -> DomainEvent {
        switch (type, schemaVersion) {
        case (MovieAdded.typeName, 1): .movieAdded(try decoded(payload))
        case (MovieTagged.typeName, 1): .movieTagged(try decoded(payload))
        case (IdentityClaimed.typeName, 1): .identityClaimed(try decoded(payload))
        case (UserRegistered.typeName, 1): .userRegistered(try decoded(payload))
        case (MovieRated.typeName, 1): .movieRated(try (decoded(payload) as MovieRatedV1).upcast)
        case (MovieRated.typeName, 2): .movieRated(try decoded(payload))
        case (ReviewLiked.typeName, 1): .reviewLiked(try decoded(payload))
        case (ReviewUnliked.typeName, 1): .reviewUnliked(try decoded(payload))
        case (WatchlistAdded.typeName, 1): .watchlistAdded(try decoded(payload))
        case (WatchlistRemoved.typeName, 1): .watchlistRemoved(try decoded(payload))
        case (WatchProgressed.typeName, 1): .watchProgressed(try decoded(payload))
        case (FriendRequested.typeName, 1): .friendRequested(try decoded(payload))
        case (FriendRequestAnswered.typeName, 1): .friendRequestAnswered(try decoded(payload))
        case (FriendRequestCancelled.typeName, 1): .friendRequestCancelled(try decoded(payload))
        case (FriendRemoved.typeName, 1): .friendRemoved(try decoded(payload))
        case (UserBlocked.typeName, 1): .userBlocked(try decoded(payload))
        case (UserUnblocked.typeName, 1): .userUnblocked(try decoded(payload))
        case (MovieRecommended.typeName, 1): .movieRecommended(try decoded(payload))
        case (ProfileUpdated.typeName, 1): .profileUpdated(try decoded(payload))
        case (TermsAccepted.typeName, 1): .termsAccepted(try decoded(payload))
        default: throw DecodingFailure.unknownType(type, schemaVersion: schemaVersion)
        }
    }

    private static func encoded<E: EventPayload>(_ event: E) throws -> EncodedEvent {
        EncodedEvent(type: E.typeName, schemaVersion: E.schemaVersion, payload: try encoder.encode(event))
    }

    private static func decoded<E: Decodable>(_ payload: Data) throws -> E {
        try JSONDecoder().decode(E.self, from: payload)
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
