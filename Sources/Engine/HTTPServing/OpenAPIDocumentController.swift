import Hummingbird

/// `GET /openapi.json`: a product's OpenAPI 3.1 document of every route, no sign-in needed.
///
/// Each product embeds its document in the binary (`.embedInCode` in Package.swift) and passes the
/// bytes here, not a `.copy` resource: on Linux `Bundle.module` finds a copied resource only next to
/// the executable or in the build directory, and traps when neither exists, as after
/// `install .build/release/nuvie /usr/local/bin` (ops/README.md).
public struct OpenAPIDocumentController<Context: RequestContext>: Sendable {
    let document: [UInt8]

    public init(document: [UInt8]) {
        self.document = document
    }

    public func register(on router: Router<Context>) {
        router.get("openapi.json", use: serve)
    }

    func serve(_ request: Request, context: Context) async throws -> Response {
        Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: document)))
    }
}
