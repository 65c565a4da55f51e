import EventSourcing

/// A product's catalog against one sample of every event case: what a new event must pass before
/// it reaches a log. The product's own test keeps an exhaustive `switch` naming each case (so a case
/// added without a sample does not compile) and hands it here as `caseName`.
public enum CatalogCheck {
    /// A line per problem; empty when none: a case sampled twice, a registered payload type with no
    /// sample (or a sample whose type is not registered), a sample that does not read back as itself
    /// from its log form sealed and opened by `cipher`.
    public static func problems<Catalog: PayloadCatalog>(
        _ catalog: Catalog.Type, samples: [Catalog.Event], caseName: (Catalog.Event) -> String, cipher: any PersonalDataCipher
    ) throws -> [String] {
        var problems: [String] = []
        let names = samples.map(caseName)
        if Set(names).count != names.count { problems.append("a case is sampled more than once: \(names.sorted())") }
        let sampled = Set(samples.map { type(of: Catalog.payload(of: $0)).typeName })
        let registered = Set(Catalog.payloadTypes.map(\.typeName))
        if sampled != registered { problems.append("registered \(registered.sorted()), sampled \(sampled.sorted())") }
        if registered.count != Catalog.payloadTypes.count { problems.append("a payload type is registered twice") }
        for sample in samples {
            let owner = Catalog.actorUserId(of: sample)
            let encoded = try Catalog.encode(sample, with: cipher.encoder(owner: owner))
            let decoded = try Catalog.decode(type: encoded.type, schemaVersion: encoded.schemaVersion, payload: encoded.payload, with: cipher.decoder(owner: owner))
            if decoded != sample { problems.append("\(caseName(sample)) reads back as \(decoded)") }
        }
        return problems
    }
}
