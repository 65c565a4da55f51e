import ArgumentParser
import AsyncHTTPClient
import Foundation
import HTTPServing
import NIOCore
import NIOHTTP1
import ReadModels

/// A running server's admin endpoints, for commands that must go through the server serving a data
/// directory. The token is `<PRODUCT>_ADMIN_TOKEN(_FILE)`, or the demo's `<data-dir>/admin-token`.
struct AdminClient<Product: EventSourcedProduct> {
    let server: String
    let token: String

    init(server: String, dataDirectory: URL) throws {
        self.server = server
        let name = "\(Product.environmentPrefix)_ADMIN_TOKEN"
        let demoToken = dataDirectory.appendingPathComponent("admin-token")
        guard let token = try EnvironmentSettings().secret(name)
            ?? (try? String(contentsOf: demoToken, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
        else {
            throw OperatorRefusal("no admin token to send to \(server): set \(name)_FILE (or \(name)) as the server has it, or give the demo's --data-dir (\(demoToken.path) does not exist)")
        }
        self.token = token
    }

    static func snakeCase(_ name: String) -> String {
        name.reduce(into: "") { result, character in
            if character.isUppercase { result += "_" + character.lowercased() } else { result.append(character) }
        }
    }

    /// The JSON object answered; a non-2xx answer throws with what the server said.
    func send(_ method: HTTPMethod, _ path: String, body: [String: Any]? = nil) async throws -> [String: Any] {
        var request = HTTPClientRequest(url: server + path)
        request.method = method
        request.headers.add(name: "X-Admin-Token", value: token)
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(data: try JSONSerialization.data(withJSONObject: body)))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        guard (200..<300).contains(response.status.code) else { throw OperatorRefusal("server answered \(response.status.code): \(String(buffer: bytes))") }
        let json = (try? JSONSerialization.jsonObject(with: Data(buffer: bytes))) as? [String: Any] ?? [:]
        // Each product names its fields in its own case (`head_position`, `headPosition`): read by the snake_case name.
        return Dictionary(json.map { (Self.snakeCase($0.key), $0.value) }) { first, _ in first }
    }
}
