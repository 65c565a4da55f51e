import ArgumentParser
import Foundation
import ReadModels

/// What a product's `as-of` prints of a past state when it does not serve it whole: one entity, or
/// one user's view, named by an option of its own (`--recipe`, `--user`).
public protocol PastStateView: ParsableArguments {
    /// `as-of`'s help.
    static var abstract: String { get }
    /// The option that names what to print, for messages: `--recipe`.
    static var option: String { get }
    /// Whether that option was given.
    var isGiven: Bool { get }
    /// What is printed, named for the line on stderr that says which position it shows: `recipe 12`.
    var subject: String { get }
    /// The document printed, from the read models folded to the position asked for.
    func document(from database: ReadDatabase) throws -> String
}

/// `<product> as-of --position N | --time T [<its view's option> | --serve PORT]`: the state as it
/// was, printed (`View`) or served whole, read-only. Personal fields are opened with the live key
/// store: a user erased since reads as erased in every past state too.
public struct AsOfCommand<Product: ServedProduct, View: PastStateView>: AsyncParsableCommand {
    public static var configuration: CommandConfiguration { CommandConfiguration(commandName: "as-of", abstract: View.abstract) }

    @OptionGroup var global: ProductOptions<Product>
    @OptionGroup var when: AsOfOptions
    @OptionGroup var view: View
    @OptionGroup var serving: AsOfServeOptions<Product>

    public init() {}

    public func validate() throws {
        guard view.isGiven != (serving.serve != nil) else { throw ValidationError("give exactly one of \(View.option) and --serve") }
    }

    public func run() async throws {
        if let port = serving.serve { return try await global.serveReadOnly(asOf: when, host: serving.host, port: port) }
        print(try await global.readModels(asOf: when) { database, position, at in
            FileHandle.standardError.write(Data("\(view.subject) as of position \(position) (\(at))\n".utf8))
            return try view.document(from: database)
        })
    }
}
