import EventSourcing

/// What a product tells the engine about itself so the engine can store, fold, serve and operate on
/// it: a name, its events and its projections. Everything else the engine does the same for every
/// product.
public protocol EventSourcedProduct: Sendable {
    associatedtype Catalog: EventCatalog

    /// Lowercase, one word: the data directory's marker, the `<NAME>_*` environment prefix, the
    /// metrics prefix and the log label.
    static var name: String { get }
    static var projections: [any Projection<Catalog.Event>] { get }
    /// The stream of a user's own events (their registration, profile, erasure).
    static func userStream(_ userId: Int64) -> String
    /// Event types a user's own data export leaves out when they are only its subject: another
    /// user's decision they must not learn of (Nuvie: who blocked them). Operators' audits show them.
    static var concealedFromSubjects: Set<String> { get }
    /// Payload fields a data export leaves out although they are the user's own: secrets that
    /// serve no one outside the server (Chat: the password hash).
    static var withheldFromExport: Set<String> { get }
    /// The `# HELP` text of each metric the product records itself, by its exposed name
    /// (`nuvie_ai_fallbacks_total`); the engine's are the engine's.
    static var metricHelp: [String: String] { get }
}

extension EventSourcedProduct {
    public static var concealedFromSubjects: Set<String> { [] }
    public static var withheldFromExport: Set<String> { [] }
    public static var metricHelp: [String: String] { [:] }

    /// The name in capitals: the prefix of the product's environment variables.
    public static var environmentPrefix: String { name.uppercased() }
}
