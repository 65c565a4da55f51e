import Foundation
import HTTPTypes
import Hummingbird
import Mustache

/// Renders the console's pages from its Mustache templates (`{{…}}` escapes HTML, so text from the
/// log, an article's title or a film's, is shown as text) with the headers every page carries: no
/// script may run, no other site may frame it (`frame-ancestors`), nothing is cached; the pages
/// themselves ask for no referrer.
struct ConsolePages: Sendable {
    let product: String
    private let library: MustacheLibrary

    init(product: String) {
        self.product = product
        var library = MustacheLibrary()
        for (name, text) in ConsoleTemplates.all {
            do { try library.register(text, named: name) } catch { preconditionFailure("the console's template \(name) does not parse: \(error)") }
        }
        self.library = library
    }

    static let securityHeaders: HTTPFields = [
        .contentSecurityPolicy: "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        .xContentTypeOptions: "nosniff",
        .cacheControl: "no-store",
    ]

    func page(
        _ template: String, title: String, _ values: [String: Any], session: ConsoleSessions.Session?, refresh: Int? = nil,
        status: HTTPResponse.Status = .ok, cookies: [String] = []
    ) -> Response {
        var context = values
        context["product"] = product
        context["title"] = title
        if let refresh { context["refresh"] = refresh }
        if let session { context["session"] = ["csrf": session.csrf] }
        let html = library.render(context, withTemplate: template) ?? ""
        var headers = Self.securityHeaders
        headers[.contentType] = "text/html; charset=utf-8"
        for cookie in cookies { headers.append(HTTPField(name: .setCookie, value: cookie)) }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    func problem(_ status: HTTPResponse.Status, _ message: String, session: ConsoleSessions.Session?) -> Response {
        page("problem", title: "\(status.code) \(status.reasonPhrase)", ["message": message], session: session, status: status)
    }

    static func asset(_ text: String, type: String) -> Response {
        var headers = securityHeaders
        headers[.contentType] = type
        headers[.cacheControl] = "max-age=3600"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// A console path with its query, each value percent-encoded.
    static func link(_ path: String, _ query: KeyValuePairs<String, String?>) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let pairs = query.compactMap { name, value in value.map { "\(name)=\($0.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" } }
        return "\(ConsoleSessions.path)/\(path)" + (pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&"))
    }

    static func pretty(_ payload: Data) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: payload, options: [.fragmentsAllowed]),
              let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .fragmentsAllowed])
        else { return String(decoding: payload, as: UTF8.self) }
        return String(decoding: data, as: UTF8.self)
    }
}
