@testable import HTTPServing
import Testing

/// RFC 9110's `Host` value: `uri-host [":" port]`, or empty.
@Suite struct HostValueTests {
    @Test(arguments: [
        "", "localhost", "localhost:8080", "localhost:", "127.0.0.1:80", "[::1]", "[::1]:8080", "[::ffff:10.0.0.1]", "[v1.fe:x]",
        "api.example.com.", "xn--bcher-kva.example", "h_o.st", "a%2Db",
        "[::]", "[2001:DB8::1]:443", "[1:2:3:4:5:6:7:8]", "[ffff:ffff:ffff:ffff:ffff:ffff:255.255.255.255]",
    ])
    func aHostAndPortIsValid(value: String) {
        #expect(HostValue.isValid(value))
    }

    @Test(arguments: [
        "a, b", "a,b", "localhost/admin", "user@localhost", "localhost:80a", "[::1", "[zz]", "[::1]x", ":80", "a%zz", "a%2", "::1",
        "ho st", "bücher.example", "a?b", "[v.x]", "[v1.]",
        "[:::::]", "[1:2]", "[1::2::3]", "[12345::1]", "[::1.2.3]", "[1:2:3:4:5:6:7:8:9]",
    ])
    func anythingElseIsNot(value: String) {
        #expect(!HostValue.isValid(value))
    }
}
