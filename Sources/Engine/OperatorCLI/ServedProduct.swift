import ArgumentParser
import Hummingbird
import Logging
import ProductHosting
import ReadModels

/// A product the engine's `serve` and `as-of --serve` start: its configuration and its application's
/// builder. The product's executable declares it, beside its `@main`.
public protocol ServedProduct: EventSourcedProduct {
    associatedtype Configuration: PastStateConfiguration
    associatedtype Served: ApplicationProtocol
    /// Flags of this product's `serve` besides the engine's (Nuvie: `--demo-dataset`); none by default.
    associatedtype ServeFlags: ParsableArguments = NoServeFlags
    /// `serve`'s help: the port, and what demo mode brings.
    static var serveAbstract: String { get }
    /// What `serve`'s own flags change in the configuration, after the engine's settings.
    static func configure(_ configuration: inout Configuration, with flags: ServeFlags) throws
    static func application(_ configuration: Configuration, logger: Logger) async throws -> Served
}

public struct NoServeFlags: ParsableArguments {
    public init() {}
}

extension ServedProduct where ServeFlags == NoServeFlags {
    public static func configure(_ configuration: inout Configuration, with flags: NoServeFlags) {}
}
