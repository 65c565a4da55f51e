import EventSourcing
import Foundation
@testable import NuvieDomain
import Testing

/// A user's sessions stay bounded however they are used: refreshed in a loop (each refresh spends a
/// token), or started and abandoned (each sign-in starts one). Both grew for good, in the log's fold
/// and in the memory that keeps it between decisions, which counted neither.
@Suite struct SessionsStateTests {
    struct History {
        private(set) var events: [Recorded<NuvieEvent>] = []
        var now = Date(timeIntervalSince1970: 1_700_000_000)

        mutating func record(_ event: NuvieEvent) {
            let position = UInt64(events.count + 1)
            events.append(Recorded(position: position, eventId: UUID(), streamId: "sessions-1", streamVersion: position, recordedAt: now, event: event))
        }

        var state: SessionsState { SessionsState.fold(events) }
    }

    @Test func aSessionRefreshedInALoopKeepsItsLatestSpentTokensOnly() {
        var history = History()
        let session = UUID()
        var tokens = [UUID()]
        history.record(.sessionStarted(SessionStarted(userId: 1, sessionId: session, refreshTokenId: tokens[0])))
        for _ in 0..<200 {
            let next = UUID()
            history.record(.sessionRefreshed(SessionRefreshed(userId: 1, sessionId: session, replacedTokenId: tokens[tokens.count - 1], refreshTokenId: next)))
            tokens.append(next)
        }
        let state = history.state
        #expect(state.retainedBytes < 8_192, "\(state.retainedBytes) bytes kept")
        let decide = { (token: UUID) in SessionDecisions.refresh(userId: 1, sessionId: session, tokenId: token, newTokenId: UUID(), state: state) }
        guard case .exchanged = decide(tokens[200]) else { Issue.record("the current token is exchanged"); return }
        guard case .reused = decide(tokens[199]) else { Issue.record("a recently spent token ends the session"); return }
        #expect(decide(tokens[0]) == .refused)
    }

    @Test func aSessionWhoseLastTokenExpiredIsDroppedWithItsSpentTokens() {
        var history = History()
        let abandoned = (0..<50).map { _ in UUID() }
        for session in abandoned { history.record(.sessionStarted(SessionStarted(userId: 1, sessionId: session, refreshTokenId: UUID()))) }
        let kept = UUID()
        history.now += SessionsState.refreshLifetime - 60
        history.record(.sessionStarted(SessionStarted(userId: 1, sessionId: kept, refreshTokenId: UUID())))
        #expect(abandoned.allSatisfy(history.state.isLive))
        history.now += 120
        history.record(.sessionStarted(SessionStarted(userId: 1, sessionId: UUID(), refreshTokenId: UUID())))
        let state = history.state
        #expect(!abandoned.contains(where: state.isLive))
        #expect(state.isLive(kept))
    }
}
