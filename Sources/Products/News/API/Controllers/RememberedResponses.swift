import Foundation
import Hummingbird
import NIOCore
import ProductHosting

extension RememberedAnswers {
    /// The answer to `id` at `revision`: the kept bytes, or `make`'s, encoded and kept.
    func response(_ id: String, revision: String, headers: HTTPFields = [:], _ make: () throws -> some Encodable) throws -> Response {
        var headers = headers
        headers[.contentType] = "application/json; charset=utf-8"
        if let kept = body(for: id, revision: revision) {
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: kept))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        let bytes = ByteBuffer(bytes: try encoder.encode(try make()))
        keep(bytes, for: id, revision: revision)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: bytes))
    }
}
