import Foundation
import HTTPServing

extension EnvironmentSettings {
    /// Where Apple's signing keys come from: an https URL of a JWKS (http only to a loopback address:
    /// whoever can answer a plain request for them could sign in as anyone), or a readable JWKS file.
    public func appleKeySource(_ name: String) throws -> AppleIdentityVerifier.KeySource? {
        guard let source = text(name) else { return nil }
        if source.hasPrefix("http://") || source.hasPrefix("https://") {
            guard let url = try httpURL(name) else { throw InvalidSetting(name: name, value: source, expected: "a URL or a file") }
            guard url.scheme == "https" || ["127.0.0.1", "::1", "[::1]", "localhost"].contains(url.host ?? "") else {
                throw InvalidSetting(name: name, value: source, expected: "an https URL (http only to a loopback address) or a readable JWKS file")
            }
            return .url(url)
        }
        guard FileManager.default.isReadableFile(atPath: source) else {
            throw InvalidSetting(name: name, value: source, expected: "an http(s) URL or a readable JWKS file")
        }
        return .file(URL(fileURLWithPath: source))
    }
}
