import NIOCore

extension SocketAddress {
    /// What a per-address limit counts a client as: its IPv4 address, or the /64 network of its IPv6
    /// address (a host is given a whole /64, and could send each request from another address in it).
    /// An IPv4-mapped IPv6 address counts as its IPv4 address. Nil for a Unix socket.
    public var clientNetwork: String? {
        guard let bytes = clientBytes else { return nil }
        guard bytes.count == 16 else { return bytes.map(String.init).joined(separator: ".") }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }

    /// The address's bytes as a client is known by: 4 for IPv4 (an IPv4-mapped IPv6 address too),
    /// 16 for IPv6; nil for a Unix socket.
    var clientBytes: [UInt8]? {
        switch self {
        case .v4(let address): return withUnsafeBytes(of: address.address.sin_addr) { Array($0) }
        case .v6(let address):
            let bytes = withUnsafeBytes(of: address.address.sin6_addr) { Array($0) }
            let mapped = bytes.prefix(10).allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff
            return mapped ? Array(bytes[12...]) : bytes
        case .unixDomainSocket: return nil
        }
    }
}
