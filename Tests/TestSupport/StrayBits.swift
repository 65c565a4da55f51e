/// A JWT with the unused low bits of its signature's last character set: base64 decoders read the
/// same signature from it, so a server must refuse it as not the token it issued.
public enum StrayBits {
    public static func of(_ token: String) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        guard let last = token.last, let value = alphabet.firstIndex(of: last) else { return token }
        return String(token.dropLast()) + String(alphabet[value | 1])
    }
}
