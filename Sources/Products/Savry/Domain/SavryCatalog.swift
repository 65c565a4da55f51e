import EventSourcing
import Foundation

/// Savry's event catalog: the engine's `PayloadCatalog` over `payloadTypes` (`SavryCatalogTests`
/// round-trips one event of every case).
///
/// Personal data is declared on the payloads' fields (`@Personal`, `@PersonalValue`): an identity's
/// subject, a recipe's content and every change to it. They are sealed under their event's actor's
/// data key by the encoder the engine hands `encode`, and opened (nil once that user is erased) by
/// the decoder it hands `decode`.
public enum SavryCatalog: PayloadCatalog {
    public typealias Event = SavryEvent

    public static let payloadTypes: PayloadTypes<SavryEvent> = [
        PayloadType(IdentityClaimed.self) { .identityClaimed($0) },
        PayloadType(UserRegistered.self) { .userRegistered($0) },
        PayloadType(RecipeCreated.self) { .recipeCreated($0) },
        PayloadType(RecipeUpdated.self) { .recipeUpdated($0) },
        PayloadType(RecipeDeleted.self) { .recipeDeleted($0) },
        PayloadType(SignedOut.self) { .signedOut($0) },
        PayloadType(UserErased.self) { .userErased($0) },
    ]

    public static func actorUserId(of event: SavryEvent) -> Int64? { event.actorUserId }
    public static func subjectUserIds(of event: SavryEvent) -> [Int64] { event.subjectUserIds }
    public static let eventIdNamespace = "savry"

    public static func userErased(_ erasure: UserErased) -> SavryEvent { .userErased(erasure) }
    public static func erasure(in event: SavryEvent) -> UserErased? { if case .userErased(let erased) = event { erased } else { nil } }

    public static func payload(of event: SavryEvent) -> any EventPayload { event.payload }
}
