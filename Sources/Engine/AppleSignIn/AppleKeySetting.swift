import Foundation
import HTTPServing

extension EnvironmentSettings {
    /// Where Apple's signing keys come from: an http(s) URL of a JWKS, or a readable JWKS file.
    public func appleKeySource(_ name: String) throws -> AppleIdentityVerifier.KeySource? {
        guard let source = text(name) else { return nil }
        if source.hasPrefix("http://") || source.hasPrefix("https://") {
            guard let url = try httpURL(name) else { throw InvalidSetting(name: name, value: source, expected: "a URL or a file") }
            return .url(url)
        }
        guard FileManager.default.isReadableFile(atPath: source) else {
            throw InvalidSetting(name: name, value: source, expected: "an http(s) URL or a readable JWKS file")
        }
        return .file(URL(fileURLWithPath: source))
    }
}
