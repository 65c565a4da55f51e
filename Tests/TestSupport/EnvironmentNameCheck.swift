import HTTPServing

/// A configuration's `environmentNames` (what start-up accepts without a "misspelt?" warning)
/// against the names its `apply` and `serve` actually read.
public enum EnvironmentNameCheck {
    /// A line per name declared and never read, or read and not declared; empty when they agree.
    public static func problems(prefix: String, declared: Set<String>, apply: (EnvironmentSettings) throws -> Void) rethrows -> [String] {
        let reads = EnvironmentSettings.NamesRead()
        try apply(EnvironmentSettings([:], recordingReadsIn: reads))
        let read = reads.all.union(EnvironmentSettings.servingNames(prefix: prefix))
        return declared.subtracting(read).sorted().map { "\($0) is declared but never read" }
            + read.subtracting(declared).sorted().map { "\($0) is read but not declared" }
    }
}
