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
    /// The document printed, from the read models folded to `position`.
    func document(from database: ReadDatabase, at position: UInt64) async throws -> String
    /// The same document folded from only the events that can show in it, when the view knows which
    /// (one user's own and their friends', say): nil when it needs the whole log folded.
    func documentFromOwnEvents(of live: LiveLogAndKeys, at position: UInt64) throws -> String?
}

extension PastStateView {
    public func documentFromOwnEvents(of live: LiveLogAndKeys, at position: UInt64) throws -> String? { nil }
}

/// `<product> as-of --position N | --time T [<its view's option> | --serve PORT] [--output DIR]`: the
/// state as it was, printed (`View`), served whole and read-only, or kept in a directory. Personal
/// fields are opened with the live key store: a user erased since reads as erased in every past state too.
public struct AsOfCommand<Product: ServedProduct, View: PastStateView>: AsyncParsableCommand {
    public static var configuration: CommandConfiguration { CommandConfiguration(commandName: "as-of", abstract: View.abstract) }

    @OptionGroup var global: ProductOptions<Product>
    @OptionGroup var when: AsOfOptions
    @OptionGroup var view: View
    @OptionGroup var serving: AsOfServeOptions<Product>

    @Option(help: "Keep what is built in this directory instead of a temporary one: read.sqlite, or with --serve a whole data directory.")
    var output: String?

    public init() {}

    public func validate() throws {
        guard !(view.isGiven && serving.serve != nil) else { throw ValidationError("\(View.option) and --serve do not go together") }
        guard view.isGiven || serving.serve != nil || output != nil else { throw ValidationError("give one of \(View.option), --serve and --output") }
        if let port = serving.serve, !(0...65_535).contains(port) { throw ValidationError("--serve must be a port from 0 to 65535") }
        // A fold goes on from the checkpoints it finds: read models of a later position would be taken as this one's.
        if let output, serving.serve == nil, !((try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []).isEmpty {
            throw ValidationError("--output \(output) is not empty: give a new or empty directory")
        }
    }

    public func run() async throws {
        let kept = output.map { URL(fileURLWithPath: $0, isDirectory: true) }
        if let port = serving.serve { return try await global.serveReadOnly(asOf: when, host: serving.host, port: port, output: kept) }
        let live = try global.openLogAndKeys()
        defer { live.close() }
        let (position, at) = try when.resolve(in: live.log)
        let started = ContinuousClock.now
        if view.isGiven, kept == nil, let document = try view.documentFromOwnEvents(of: live, at: position) {
            let milliseconds = Int((ContinuousClock.now - started) / .milliseconds(1))
            FileHandle.standardError.write(Data("\(view.subject) as of position \(position) (\(at)), from the events it shows alone, in \(milliseconds) ms\n".utf8))
            return print(document)
        }
        let what = view.isGiven ? view.subject : "read models"
        FileHandle.standardError.write(Data("\(what) as of position \(position) (\(at))\(kept.map { ", kept in \($0.path)/read.sqlite" } ?? "")\n".utf8))
        let document = try await global.readModels(of: live, at: position, keptIn: kept) { database in
            view.isGiven ? try await view.document(from: database, at: position) : nil
        }
        if let document { print(document) }
    }
}
