import ArgumentParser
import Foundation
import ProductHosting
import ReadModels

/// `<product> erase --user ID [--server URL]`: a support-desk erasure, the same as the user's own
/// account deletion: a `user-erased` event (initiated by an operator, in the audit) and the user's
/// data key destroyed. With `--server` the running server does it (it holds the key cache); without,
/// the data directory must not be served.
public struct EraseCommand<Product: EventSourcedProduct>: AsyncParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "erase",
            abstract: "Erase a user's account: record user-erased and destroy their data key, so none of their personal data can be read again."
        )
    }

    @OptionGroup var global: ProductOptions<Product>

    @Option(help: "The user to erase.")
    var user: Int64

    @Option(help: "A running server's base URL (e.g. http://127.0.0.1:8080): it erases while serving. Admin token as for replay.")
    var server: String?

    public init() {}

    public func validate() throws {
        guard user > 0 else { throw ValidationError("--user must be a positive user id") }
    }

    public func run() async throws {
        let logger = global.logger()
        if let server {
            let answer = try await AdminClient<Product>(server: server, dataDirectory: global.dataDirectory).send(.POST, "/admin/users/\(user)/erase")
            return print("erased user \(user) (user-erased at position \(answer["position"] ?? "?"))")
        }
        let directory = try global.existingProductDirectory()
        if let pid = directory.runningServer {
            throw OperatorRefusal("a server (pid \(pid)) is serving \(global.dataDirectory.path): use --server URL so that it erases (it caches keys)")
        }
        do {
            let result = try await directory.whileStopped("erase") {
                let stores = try await global.openStores(logger: logger)
                defer { stores.close() }
                return try await UserErasure(stores: stores, runner: try stores.runner(logger: logger)).erase(user, initiator: .operator)
            }
            print("erased user \(user) (user-erased at position \(result.position)); their personal fields now read as absent everywhere")
        } catch UserErasureFailure.unknownUser {
            throw OperatorRefusal("no user \(user)")
        } catch UserErasureFailure.alreadyErased {
            throw OperatorRefusal("user \(user) is already erased")
        }
    }
}
