import HTTPServing

/// What a configuration's `apply` reads, against the names the engine reads for every product.
public enum EnvironmentNameCheck {
    /// The engine's names (`servingNames`) that the product's `apply` reads as well: two readers of one
    /// setting, each with its own idea of it. Empty when they keep apart.
    public static func enginesNamesReadByTheProduct(prefix: String, apply: (EnvironmentSettings) throws -> Void) rethrows -> [String] {
        let settings = EnvironmentSettings([:])
        try apply(settings)
        return settings.namesRead.intersection(EnvironmentSettings.servingNames(prefix: prefix)).sorted()
    }
}
