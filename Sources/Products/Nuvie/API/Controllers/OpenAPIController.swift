import Hummingbird

/// `GET /openapi.json`: the OpenAPI 3.1 document of every route, no sign-in needed.
///
/// The document is embedded in the binary (`.embedInCode` in Package.swift), not a `.copy` resource:
/// on Linux `Bundle.module` finds a copied resource only next to the executable or in the build
/// directory, and traps when neither exists — as after `install .build/release/nuvie /usr/local/bin`
/// (ops/README.md).
struct OpenAPIController: Sendable {
    static var document: [UInt8] { PackageResources.openapi_json }

    func register(on router: Router<AppRequestContext>) {
        router.get("openapi.json", use: serve)
    }

    func serve(_ request: Request, context: AppRequestContext) async throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: Self.document))
        )
    }
}
