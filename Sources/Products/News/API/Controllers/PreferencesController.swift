import Hummingbird
import HTTPServing
import JSONText
import NewsCommands
import NewsDomain
import ReadModels

/// `PUT /v1/preferences {"focus_profile"?, "holdings"?}`: holdings as tickers or
/// `{"ticker", "label"?, "notes"?}` objects, each a known S&P 500 ticker. What is left out stays as
/// it was (`balanced` and no holdings at first). A field it does not know (`focusProfile`, `holding`)
/// is refused rather than left out unnoticed.
struct PreferencesController: Sendable {
    let commands: NewsCommandService
    let readYourWrites: ReadYourWrites

    func update(_ request: Request, context: NewsRequestContext) async throws -> PreferencesJSON {
        let fields = try await RequestObject.read(request, context: context, example: #"{"focus_profile": "focused", "holdings": ["AAPL"]}"#)
        if let unknown = fields.firstField(notIn: ["focus_profile", "holdings"]) {
            throw NewsAPIError.badRequest("Unknown field", "\(unknown) is not a preference: send focus_profile and/or holdings")
        }
        var focus: FocusProfile?
        switch fields["focus_profile"] {
        case nil, .null?: break
        case .string(let raw)?:
            guard let profile = FocusProfile(rawValue: raw) else {
                throw NewsAPIError.badRequest("Invalid focus_profile", "focus_profile must be one of focused, balanced, broad")
            }
            focus = profile
        default: throw NewsAPIError.badRequest("Invalid focus_profile", "focus_profile must be one of focused, balanced, broad")
        }
        var holdings: [Holding]?
        switch fields["holdings"] {
        case nil, .null?: break
        case .array(let items)?: holdings = try items.map(Self.holding)
        default: throw NewsAPIError.badRequest("Invalid holdings", "holdings must be a list of tickers or {ticker, label, notes} objects")
        }
        let (stored, result) = try await commands.setPreferences(of: context.userId, focus: focus, holdings: holdings)
        try await readYourWrites.wait(for: result.position)
        return PreferencesJSON(success: true, focus_profile: stored.focusProfile.rawValue, holdings_count: stored.holdings.count)
    }

    static func holding(_ value: JSONValue) throws -> Holding {
        switch value {
        case .string(let ticker): return Holding(ticker: ticker)
        case .object(let object):
            if let unknown = object.firstField(notIn: ["ticker", "label", "notes"]) {
                throw NewsAPIError.badRequest("Invalid holdings", "\(unknown) is not a holding field: ticker, label, notes")
            }
            guard case .string(let ticker) = object["ticker"] else { throw NewsAPIError.badRequest("Invalid holdings", "each holding object needs a ticker string") }
            func text(_ key: String) throws -> String? {
                switch object[key] {
                case nil, .null?: return nil
                case .string(let text)?: return text
                default: throw NewsAPIError.badRequest("Invalid holdings", "\(key) must be a string")
                }
            }
            return Holding(ticker: ticker, label: try text("label"), notes: try text("notes"))
        default:
            throw NewsAPIError.badRequest("Invalid holdings", "holdings must be a list of tickers or {ticker, label, notes} objects")
        }
    }
}
