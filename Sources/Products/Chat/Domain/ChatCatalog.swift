import EventSourcing

/// The chat product's event catalog: the engine's `PayloadCatalog` over `payloadTypes`
/// (`ChatCatalogTests` round-trips one event of every case).
///
/// Personal fields (`@Personal`, `@PersonalValue`) are an account's email, names and password hash,
/// sessions' titles, every message and reply, and attachments' names. They are sealed under the
/// user's data key and read as absent once that user is erased.
public enum ChatCatalog: PayloadCatalog {
    public typealias Event = ChatEvent

    public static let payloadTypes: PayloadTypes<ChatEvent> = [
        PayloadType(EmailClaimed.self) { .identityClaimed($0) },
        PayloadType(UserRegistered.self) { .userRegistered($0) },
        PayloadType(PasswordRehashed.self) { .passwordRehashed($0) },
        PayloadType(TokenIssued.self) { .tokenIssued($0) },
        PayloadType(TokenRevoked.self) { .tokenRevoked($0) },
        PayloadType(SessionStarted.self) { .sessionStarted($0) },
        PayloadType(SessionRenamed.self) { .sessionRenamed($0) },
        PayloadType(UserMessageSent.self) { .userMessageSent($0) },
        PayloadType(AssistantReplied.self) { .assistantReplied($0) },
        PayloadType(AssistantFailed.self) { .assistantFailed($0) },
        PayloadType(UserErased.self) { .userErased($0) },
    ]

    public static func payload(of event: ChatEvent) -> any EventPayload { event.payload }
    public static func actorUserId(of event: ChatEvent) -> Int64? { event.actorUserId }
    public static func subjectUserIds(of event: ChatEvent) -> [Int64] { event.subjectUserIds }
    public static let eventIdNamespace = "chat"
    public static func userErased(_ erasure: UserErased) -> ChatEvent { .userErased(erasure) }
    public static func erasure(in event: ChatEvent) -> UserErased? { if case .userErased(let erased) = event { erased } else { nil } }
}
