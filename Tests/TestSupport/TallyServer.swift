import Foundation
import GRDB
import HTTPServing
import Hummingbird
import Logging
import NIOCore
import ProductHosting
import ReadModels

/// The engine's test product served the way a product is: a configuration, an error shape of its own
/// (`{"error": …}`), a request context from its contract, a few routes of its own, and the engine's
/// (`/health`, `/metrics`, `/admin` behind the operator token), so the engine's hosting is tested
/// over HTTP without any real product.
public struct TallyConfiguration: PastStateConfiguration {
    public var serving: ServingSettings

    public init(dataDirectory: URL) {
        serving = .testing(dataDirectory: dataDirectory)
    }

    public mutating func apply(_ settings: EnvironmentSettings) throws {}
}

public struct TallyError: ContractError {
    public var status: HTTPResponse.Status
    public var message: String
    public var headers: HTTPFields = [:]

    public init(_ status: HTTPResponse.Status, _ message: String) {
        self.status = status
        self.message = message
    }

    public init(_ refusal: EngineRefusal) {
        self.init(refusal.status, refusal.message)
        headers = refusal.headers
    }

    public static func mapping(_ error: any Error) -> TallyError? { error as? TallyError }
    public static let internalError = TallyError(.internalServerError, "internal error")

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = try JSONEncoder().encode(["error": message])
        var headers = headers
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

public enum TallyContract: RequestContract {
    public struct Grant: UserGrant { public var userId: Int64 }
    public static let maximumBodySize = 64 << 10
    public static func responseEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }
    public static func requestDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }
    public static func signInRequired() -> any Error { TallyError(.unauthorized, "sign in") }
}

public typealias TallyRequestContext = ProductRequestContext<TallyContract>

/// `POST /tallies/{name}` `{"user_id", "amount", "note"}` counts on the user's own stream and answers
/// once the read models show it; `GET /tallies/{name}`; `GET /users/{id}/export`, the engine's
/// personal-data export; then the engine's routes, the operator's erasing as a user's own would.
public func buildTallyApplication(configuration: TallyConfiguration, logger: Logger = Logger(label: "tally")) async throws -> some ApplicationProtocol {
    let stores = try await ProductStores<TallyProduct>.open(for: configuration, logger: logger)
    return try await stores.closedIfThrowing {
        let runner = try stores.runner(logger: logger)
        let readYourWrites = ReadYourWrites(runner: runner, timeout: configuration.readYourWritesTimeout)
        let router = Router(context: TallyRequestContext.self)
        router.addMiddleware {
            RequestObservationMiddleware()
            ContractErrorMiddleware<TallyRequestContext, TallyError>()
            LogPositionMiddleware(readYourWrites: readYourWrites)
        }
        router.post("tallies/:name") { request, context -> EditedResponse<[String: UInt64]> in
            struct Count: Decodable { var userId: Int64, amount: Int, note: String? }
            let count = try await request.decode(as: Count.self, context: context)
            let counted = Counted(tally: context.parameters.get("name") ?? "", userId: count.userId, amount: count.amount, note: count.note)
            let written = try await stores.store.append([.counted(counted)], to: TallyProduct.userStream(count.userId), eventId: .timeOrdered())
            try await readYourWrites.wait(for: written.position)
            return EditedResponse(status: .created, response: ["position": written.position])
        }
        router.get("tallies/:name") { _, context -> [String: Int] in
            let name = context.parameters.get("name") ?? ""
            let row = try stores.readDatabase.read { try Row.fetchOne($0, sql: "SELECT total, counts FROM tally WHERE name = ?", arguments: [name]) }
            guard let row else { throw TallyError(.notFound, "no tally \(name)") }
            return ["total": row["total"], "counts": row["counts"]]
        }
        let export = PersonalDataExport(stores: stores)
        router.get("users/:id/export") { _, context in
            guard let user = context.parameters.get("id").flatMap(Int64.init) else { throw TallyError(.badRequest, "id") }
            let notes = try stores.readDatabase.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM tallyNote WHERE userId = ?", arguments: [user]) } ?? 0
            return export.response(for: user, account: Data(#"{"notes":\#(notes)}"#.utf8)) { $0.formatted(.iso8601) }
        }
        let erasure = UserErasure(stores: stores, readYourWrites: readYourWrites)
        try stores.addEngineRoutes(
            to: router, configuration: configuration, runner: runner, refusal: TallyError(.unauthorized, "needs X-Admin-Token")
        ) { try await erasure.erase($0, initiator: .operator).position }
        return try await stores.server(router, configuration: configuration, errors: TallyError.self, runner: runner, logger: logger)
    }
}

/// The tally product served over a new data directory, its configuration changed by `configure`,
/// on an ephemeral port of 127.0.0.1 until `body` returns.
public func withServedTally(
    _ configure: (inout TallyConfiguration) -> Void = { _ in }, _ body: @Sendable (_ port: Int) async throws -> Void
) async throws {
    let directory = try TemporaryDirectory()
    var configuration = TallyConfiguration(dataDirectory: directory.url)
    configure(&configuration)
    try await serve(try await buildTallyApplication(configuration: configuration), body)
}

/// The status `GET /tallies/cups` gets on a new connection: 404 while nothing was counted.
public func cupsTallyStatus(port: Int) async throws -> Int? {
    let check = try await RawConnection.open(port: port)
    try await check.send("GET /tallies/cups HTTP/1.1\r\nHost: localhost\r\n\r\n")
    let status = try await check.response(within: .seconds(10))?.status
    await check.close()
    return status
}
