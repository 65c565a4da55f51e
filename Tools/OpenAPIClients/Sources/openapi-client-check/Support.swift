import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a product's check stopped: the operation, what it answered and why that is wrong.
struct CheckFailure: Error, CustomStringConvertible {
    let description: String
}

/// A call answered with a status other than the one the demo's flow expects (documented or not).
struct UnexpectedOutput: Error {
    let output: String
}

/// The status and the start of the body of each operation's latest answer, as the transport saw them:
/// printed per call, and quoted when a call fails.
actor Exchanges {
    private var latest: [String: (status: Int, body: String)] = [:]

    func record(_ operationID: String, status: Int, body: String) { latest[operationID] = (status, body) }

    func latest(_ operationID: String) -> (status: Int, body: String)? { latest[operationID] }
}

/// Adds a product's credentials to every request (the generator leaves security schemes to
/// middleware) and records each answer for `Exchanges`.
struct Recording: ClientMiddleware {
    let headers: HTTPFields
    let exchanges: Exchanges

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        for field in headers { request.headerFields[field.name] = field.value }
        let (response, responseBody) = try await next(request, body, baseURL)
        guard let responseBody else {
            await exchanges.record(operationID, status: response.status.code, body: "")
            return (response, nil)
        }
        // Buffered so that a failure can quote it; the demo's answers are small.
        let data = try await Data(collecting: responseBody, upTo: 64 * 1024 * 1024)
        await exchanges.record(operationID, status: response.status.code, body: String(decoding: data.prefix(600), as: UTF8.self))
        return (response, HTTPBody(data))
    }
}

/// One product's run: its server, the calls made so far, and how each is reported.
final class ProductCheck: Sendable {
    let product: String
    let serverURL: URL
    let exchanges = Exchanges()
    private let counter = Counter()

    init(product: String, serverURL: URL) {
        self.product = product
        self.serverURL = serverURL
    }

    /// The transport and middleware for a generated client, with these extra request headers.
    func transport(headers: HTTPFields = [:]) -> (transport: URLSessionTransport, middlewares: [any ClientMiddleware]) {
        (URLSessionTransport(), [Recording(headers: headers, exchanges: exchanges)])
    }

    var calls: Int {
        get async { await counter.value }
    }

    /// Runs one call through a generated client and prints `<product> <operationId> <status>`; throws
    /// a `CheckFailure` naming the operation when the client throws (a body that does not decode, a
    /// transport error) or the answer is not the case `call` expects (an undocumented status, or a
    /// documented one that the demo's flow should not get).
    func call<T: Sendable>(_ operationID: String, _ call: () async throws -> T) async throws -> T {
        do {
            let value = try await call()
            let status = await exchanges.latest(operationID)?.status
            print("\(product) \(operationID) \(status.map(String.init) ?? "?")")
            await counter.increment()
            return value
        } catch let unexpected as UnexpectedOutput {
            let latest = await exchanges.latest(operationID)
            let kind = unexpected.output.hasPrefix("undocumented(") ? "an undocumented status" : "a status the flow does not expect"
            throw CheckFailure(
                description: "\(product) \(operationID): \(kind), \(latest.map { String($0.status) } ?? "?"): \(latest?.body ?? unexpected.output)"
            )
        } catch let error as ClientError {
            let status = error.response.map { " (status \($0.status.code))" } ?? ""
            throw CheckFailure(description: "\(product) \(operationID)\(status): \(error.causeDescription): \(error.underlyingError)")
        } catch let failure as CheckFailure {
            throw CheckFailure(description: "\(product) \(operationID): \(failure.description)")
        } catch {
            throw CheckFailure(description: "\(product) \(operationID): \(error)")
        }
    }
}

actor Counter {
    private(set) var value = 0
    func increment() { value += 1 }
}

/// For the `default` branch of a switch over an operation's output.
func unexpected(_ output: some Sendable) -> UnexpectedOutput {
    UnexpectedOutput(output: String(describing: output))
}

/// Fails the check when something the flow relies on does not hold.
func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw CheckFailure(description: message()) }
}
