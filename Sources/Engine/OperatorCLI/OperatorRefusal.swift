/// A command refused for what it found (a server running, a user already erased, the server's own
/// refusal), not for how it was called: said in one line, exit status 1, without the usage text
/// that ArgumentParser prints after a `ValidationError` (and its exit status 64).
public struct OperatorRefusal: Error, Equatable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
