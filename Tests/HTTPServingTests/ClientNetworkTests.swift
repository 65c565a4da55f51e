import HTTPServing
import NIOCore
import Testing

/// Per-address limits count an IPv6 client by its /64: any host may send from every address of it.
struct ClientNetworkTests {
    @Test func addressesOfOneIPv6NetworkAreOneClient() throws {
        let first = try SocketAddress(ipAddress: "2001:db8:0:1::1", port: 1)
        let second = try SocketAddress(ipAddress: "2001:db8:0:1:ffff:ee:dd:cc", port: 2)
        let neighbour = try SocketAddress(ipAddress: "2001:db8:0:2::1", port: 1)
        #expect(first.clientNetwork == "2001:db8:0:1::/64")
        #expect(second.clientNetwork == first.clientNetwork)
        #expect(neighbour.clientNetwork == "2001:db8:0:2::/64")
    }

    @Test func anIPv4AddressIsItselfHoweverItArrives() throws {
        #expect(try SocketAddress(ipAddress: "192.0.2.7", port: 1).clientNetwork == "192.0.2.7")
        #expect(try SocketAddress(ipAddress: "::ffff:192.0.2.7", port: 1).clientNetwork == "192.0.2.7")
        #expect(try SocketAddress(ipAddress: "192.0.2.8", port: 1).clientNetwork == "192.0.2.8")
    }
}
