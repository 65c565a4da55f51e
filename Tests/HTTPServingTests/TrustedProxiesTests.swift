import HTTPServing
import NIOCore
import Testing

/// Who a request is counted as behind proxies: the address `X-Forwarded-For` names when the
/// connection comes from a trusted proxy, and the connection's own address otherwise.
struct TrustedProxiesTests {
    private func address(_ text: String) throws -> SocketAddress { try SocketAddress(ipAddress: text, port: 1) }
    private func client(_ proxies: TrustedProxies, peer: String, _ forwardedFor: [String]) throws -> String? {
        proxies.client(peer: try address(peer), forwardedFor: forwardedFor)?.ipAddress
    }

    @Test func addressesAndNetworksAreParsedAndMatched() throws {
        let proxies = try TrustedProxies(parsing: "127.0.0.1, 10.0.0.0/8,fd00::/8, 192.168.1.128/25")
        for trusted in ["127.0.0.1", "::ffff:127.0.0.1", "10.200.3.4", "fd12::1", "192.168.1.200"] {
            #expect(proxies.trusts(try address(trusted)), "\(trusted)")
        }
        for other in ["127.0.0.2", "11.0.0.1", "fe80::1", "192.168.1.127", "::1"] {
            #expect(!proxies.trusts(try address(other)), "\(other)")
        }
        for bad in ["10.0.0.0/33", "fd00::/129", "example.com", "10.0.0.0/", "10.0.0.0/8/8", "1.2.3", "10.0.0.1, ,10.0.0.2"] {
            #expect(throws: TrustedProxies.Invalid.self, "\(bad)") { try TrustedProxies(parsing: bad) }
        }
        #expect(!TrustedProxies.none.trusts(try address("127.0.0.1")))
    }

    @Test func theClientIsTheLastAddressNotTrustedAndOnlyATrustedPeerIsBelieved() throws {
        let proxies = try TrustedProxies(parsing: "127.0.0.1, 10.0.0.0/8")
        #expect(try client(proxies, peer: "127.0.0.1", ["203.0.113.7"]) == "203.0.113.7")
        // What the client itself wrote comes first: read from the end, the first address no trusted proxy has is the client.
        #expect(try client(proxies, peer: "127.0.0.1", ["198.51.100.1, 203.0.113.7, 10.0.0.9"]) == "203.0.113.7")
        #expect(try client(proxies, peer: "127.0.0.1", ["198.51.100.1", "203.0.113.7"]) == "203.0.113.7", "two header lines are one list")
        #expect(try client(proxies, peer: "127.0.0.1", ["10.0.0.8, 10.0.0.9"]) == "10.0.0.8", "every hop trusted: the first")
        #expect(try client(proxies, peer: "127.0.0.1", ["[2001:db8::7]:443"]) == "2001:db8::7")
        #expect(try client(proxies, peer: "127.0.0.1", ["203.0.113.7:5120"]) == "203.0.113.7")
        #expect(try client(proxies, peer: "127.0.0.1", ["203.0.113.7, nonsense"]) == "127.0.0.1", "no address where one was needed: the peer")
        #expect(try client(proxies, peer: "127.0.0.1", []) == "127.0.0.1")
        #expect(try client(proxies, peer: "198.51.100.9", ["203.0.113.7"]) == "198.51.100.9", "a client naming someone else is not believed")
        #expect(try client(.none, peer: "127.0.0.1", ["203.0.113.7"]) == "127.0.0.1")
    }

    @Test func onlyTheEndOfALongListIsReadAndTooManyTrustedHopsAreNotBelieved() throws {
        let proxies = try TrustedProxies(parsing: "10.0.0.0/8")
        let written = Array(repeating: "nonsense", count: 20_000).joined(separator: ",")
        #expect(try client(proxies, peer: "10.0.0.1", [written + ", 203.0.113.7, 10.0.0.2"]) == "203.0.113.7")
        let sixteen = (1...16).map { "10.0.1.\($0)" }.joined(separator: ", ")
        #expect(try client(proxies, peer: "10.0.0.1", ["203.0.113.7, " + sixteen]) == "10.0.0.1", "more trusted hops than any deployment has")
        #expect(try client(proxies, peer: "10.0.0.1", ["203.0.113.7, " + sixteen.split(separator: ",").dropFirst().joined(separator: ",")]) == "203.0.113.7")
    }
}
