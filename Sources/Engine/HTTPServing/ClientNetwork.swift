import NIOCore

extension SocketAddress {
    /// What a per-address limit counts a client as: its IPv4 address, or the /64 network of its IPv6
    /// address (a host is given a whole /64, and could send each request from another address in it).
    /// An IPv4-mapped IPv6 address counts as its IPv4 address. Nil for a Unix socket.
    public var clientNetwork: String? {
        switch self {
        case .v4: return ipAddress
        case .v6(let address):
            let bytes = withUnsafeBytes(of: address.address.sin6_addr) { Array($0) }
            if bytes.prefix(10).allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
                return bytes[12...].map(String.init).joined(separator: ".")
            }
            let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            return groups.joined(separator: ":") + "::/64"
        case .unixDomainSocket: return nil
        }
    }
}
