/// What each session command records, decided from the session's stream. Pure: the command service
/// folds the stream and appends what these return. Another user's session is not found, as a
/// missing one is.
public enum SessionDecisions {
    public static func start(_ sessionId: Int64, by userId: Int64, title: String, tone: String, lang: String) throws(ChatDomainError) -> SessionStarted {
        SessionStarted(
            sessionId: sessionId, userId: userId, title: try ChatRules.title(title), tone: try ChatRules.tone(tone), lang: try ChatRules.language(lang)
        )
    }

    public static func send(
        _ message: String, messageId: String, tone: String, lang: String, attachments: [Attachment], to sessionId: Int64, by userId: Int64, state: SessionState
    ) throws(ChatDomainError) -> UserMessageSent {
        guard state.isOpen(to: userId) else { throw .sessionNotFound(sessionId: sessionId) }
        return UserMessageSent(
            sessionId: sessionId, userId: userId, messageId: messageId, content: try ChatRules.message(message),
            tone: try ChatRules.tone(tone), lang: try ChatRules.language(lang), attachments: attachments
        )
    }

    public static func rename(_ sessionId: Int64, to title: String, by userId: Int64, state: SessionState) throws(ChatDomainError) -> [ChatEvent] {
        guard state.isOpen(to: userId) else { throw .sessionNotFound(sessionId: sessionId) }
        return [.sessionRenamed(SessionRenamed(sessionId: sessionId, userId: userId, title: try ChatRules.title(title)))]
    }
}
