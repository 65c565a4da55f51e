import HTTPServing

/// A configuration's `environmentNames` (the product's own settings; start-up accepts them and the
/// engine's `servingNames` without a "misspelt?" warning) against the names its `apply` reads.
public enum EnvironmentNameCheck {
    /// A line per name declared and never read, read and not declared, or the engine's and declared
    /// or read by the product too; empty when they agree.
    public static func problems(prefix: String, declared: Set<String>, apply: (EnvironmentSettings) throws -> Void) rethrows -> [String] {
        let reads = EnvironmentSettings.NamesRead()
        try apply(EnvironmentSettings([:], recordingReadsIn: reads))
        let engine = EnvironmentSettings.servingNames(prefix: prefix)
        return declared.subtracting(reads.all).sorted().map { "\($0) is declared but never read" }
            + reads.all.subtracting(declared).sorted().map { "\($0) is read but not declared" }
            + declared.union(reads.all).intersection(engine).sorted().map { "\($0) is the engine's: every product's serve reads it" }
    }
}
