/// Keeps what is sent to a model within a token budget: the system prompt, then the newest turns
/// that fit, oldest dropped first. Tokens are estimated at four characters each (plus four per
/// message for its framing), which errs long for English; the newest turn is always sent, cut to the
/// budget if it alone exceeds it.
public struct ConversationBudget: Sendable, Equatable {
    public var tokens: Int

    public init(tokens: Int) {
        self.tokens = tokens
    }

    public func fit(system: String, turns: [ChatTurn]) -> [ChatTurn] {
        var remaining = tokens - Self.estimate(system)
        var kept: [ChatTurn] = []
        for turn in turns.reversed() {
            let cost = Self.estimate(turn.content)
            if cost <= remaining {
                kept.append(turn)
                remaining -= cost
            } else {
                if kept.isEmpty {
                    kept.append(ChatTurn(role: turn.role, content: String(turn.content.prefix(max(remaining - 4, 0) * 4))))
                }
                break
            }
        }
        return [ChatTurn(role: .system, content: system)] + kept.reversed()
    }

    static func estimate(_ text: String) -> Int {
        (text.utf8.count + 3) / 4 + 4
    }
}
