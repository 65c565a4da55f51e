import Crypto
import EventSourcing
import Foundation
import HTTPServing
import Hummingbird
import NewsDomain
import NewsProjections

/// `POST /v1/interpret {"textOrUrl"}`: the same reading and scorer as the feed, on pasted text. A
/// URL is not fetched (this server fetches only its configured feeds): it is read as text, and the
/// signal's source says so.
struct InterpretController: Sendable {
    let reads: CurrentReads

    func interpret(_ request: Request, context: NewsRequestContext) async throws -> SignalJSON {
        let fields = try await RequestObject.read(request, context: context, example: #"{"textOrUrl": "…"}"#)
        guard case .string(let raw) = fields["textOrUrl"], !raw.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw NewsAPIError.badRequest("textOrUrl is required", "A non-empty string: pasted text or a URL")
        }
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count <= 20_000 else { throw NewsAPIError.badRequest("textOrUrl is too long", "At most 20,000 characters") }
        if let bad = StorableText.firstRefusedCharacter(in: text) {
            throw NewsAPIError.badRequest("textOrUrl contains the control character \(bad)", "Only tab, line feed and carriage return are accepted")
        }
        let isURL = CanonicalURL.of(text) != nil && !text.contains(" ")
        let preferences = try reads.preferences(of: context.userId)
        let score = SignalScore(SignalScore.Inputs(
            reading: ArticleReading.of(title: text, description: "", body: nil), outlets: 1, ageHours: nil,
            holdings: Set(preferences.holdings.map(\.ticker)), focus: preferences.focusProfile
        ))
        let digest = SHA256.hash(data: Data(text.utf8)).prefix(5).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        // A URL stays the signal's link to the original article; the source says it was not fetched.
        let url = isURL ? text : "text://\(digest)"
        return SignalJSON(
            url: url, title: String(text.prefix(200)), source: isURL ? "User Input (URL read as text, not fetched)" : "User Input",
            publishedAt: Int64(Date().timeIntervalSince1970), score: score
        )
    }
}
