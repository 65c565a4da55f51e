import EventSourcing

/// A product's catalog against one sample of every event case: what a new event must pass before
/// it reaches a log. The product's own test keeps an exhaustive `switch` naming each case (so a case
/// added without a sample does not compile) and hands it here as `caseName`.
public enum CatalogCheck {
    /// A line per problem; empty when none: a case sampled twice, a registered payload type with no
    /// sample (or a sample whose type is not registered), a wire name registered twice, a case written
    /// at other than its type's newest version, a sample that does not read back as itself
    /// from its log form sealed and opened by `cipher`.
    public static func problems<Catalog: PayloadCatalog>(
        _ catalog: Catalog.Type, samples: [Catalog.Event], caseName: (Catalog.Event) -> String, cipher: any PersonalDataCipher
    ) throws -> [String] {
        var problems: [String] = []
        let names = samples.map(caseName)
        if Set(names).count != names.count { problems.append("a case is sampled more than once: \(names.sorted())") }
        let sampled = Set(samples.map { type(of: Catalog.payload(of: $0)).typeName })
        let current = Catalog.payloadTypes.current
        let written = Set(current.map(\.typeName))
        if sampled != written { problems.append("registered \(written.sorted()), sampled \(sampled.sorted())") }
        let wireNames = Catalog.payloadTypes.all.map(\.wireName)
        if Set(wireNames).count != wireNames.count { problems.append("a wire name is registered twice: \(wireNames)") }
        for sample in samples {
            let payload = type(of: Catalog.payload(of: sample))
            if !current.contains(where: { $0.typeName == payload.typeName && $0.schemaVersion == payload.schemaVersion }) {
                problems.append("\(caseName(sample)) is written as \(payload.typeName) v\(payload.schemaVersion), not the newest registered version")
            }
        }
        for sample in samples {
            let owner = Catalog.actorUserId(of: sample)
            let encoded = try Catalog.encode(sample, with: cipher.encoder(owner: owner))
            let decoded = try Catalog.decode(type: encoded.type, schemaVersion: encoded.schemaVersion, payload: encoded.payload, with: cipher.decoder(owner: owner))
            if decoded != sample { problems.append("\(caseName(sample)) reads back as \(decoded)") }
        }
        return problems
    }
}
