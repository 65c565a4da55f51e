import Foundation
import Hummingbird

/// A product's OpenAPI document (`Sources/Products/<Product>/API/OpenAPI/openapi.json`) against the
/// router its application builds, as `METHOD /path/{capture}` keys: a route added without its
/// operation in the document shows up on one side, an operation left behind on the other.
public enum OpenAPIRoutes {
    public static func documentFile(_ product: String) -> URL {
        repositoryRoot.appendingPathComponent("Sources/Products/\(product)/API/OpenAPI/openapi.json")
    }

    public struct Unreadable: Error {}

    /// The operations the product's document describes. A path's trailing slash (Chat's are Django's)
    /// is dropped: Hummingbird's router holds and matches the path without it.
    public static func documented(_ product: String) throws -> Set<String> {
        let json = try JSONSerialization.jsonObject(with: try Data(contentsOf: documentFile(product))) as? [String: Any]
        guard let paths = json?["paths"] as? [String: [String: Any]] else { throw Unreadable() }
        let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]
        return Set(paths.flatMap { path, item in
            let routed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
            return item.keys.filter(methods.contains).map { "\($0.uppercased()) \(routed)" }
        })
    }

    /// Every string an `enum` in the product's document allows: its error codes among them, so a
    /// test can check each code the product answers with is documented.
    public static func enumeratedStrings(_ product: String) throws -> Set<String> {
        func strings(in value: Any) -> [String] {
            switch value {
            case let object as [String: Any]: (object["enum"] as? [String] ?? []) + object.values.flatMap(strings)
            case let array as [Any]: array.flatMap(strings)
            default: []
            }
        }
        return Set(strings(in: try JSONSerialization.jsonObject(with: try Data(contentsOf: documentFile(product)))))
    }

    /// The routes a router holds. Hummingbird writes a path's captures as OpenAPI does
    /// (`/movies/{movie_id}`); a `**` catch-all, which answers an unknown path with the product's
    /// 404, is no operation.
    public static func registered<Context>(_ router: Router<Context>) -> Set<String> {
        Set(router.routes.map { "\($0.method.rawValue) \($0.path.description)" }.filter { !$0.hasSuffix("/**") })
    }
}
