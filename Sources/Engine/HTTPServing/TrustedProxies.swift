import Foundation
import NIOCore

/// The proxies in front of the server (a load balancer, nginx) whose `X-Forwarded-For` names the
/// client: behind them every connection comes from a proxy's address, and a per-address limit would
/// count every client as one. A request from any other address is counted as its own address,
/// whatever it sends: a client cannot choose who it is counted as.
public struct TrustedProxies: Sendable, Equatable {
    struct Network: Sendable, Equatable {
        /// 4 bytes for IPv4, 16 for IPv6.
        var address: [UInt8]
        var prefixLength: Int

        func contains(_ bytes: [UInt8]) -> Bool {
            guard bytes.count == address.count else { return false }
            let whole = prefixLength / 8, rest = prefixLength % 8
            guard bytes.prefix(whole) == address.prefix(whole) else { return false }
            guard rest > 0 else { return true }
            let mask = UInt8(0xff) << (8 - rest)
            return bytes[whole] & mask == address[whole] & mask
        }
    }

    public struct Invalid: Error, CustomStringConvertible {
        public var entry: String
        public var description: String { "\(entry) is not an IP address or network (10.0.0.0/8, 127.0.0.1, fd00::/8)" }
    }

    var networks: [Network]

    public static let none = TrustedProxies(networks: [])

    public var isEmpty: Bool { networks.isEmpty }

    init(networks: [Network]) {
        self.networks = networks
    }

    /// `list`: addresses and networks, separated by commas: `127.0.0.1, 10.0.0.0/8, fd00::/8`.
    public init(parsing list: String) throws {
        networks = try list.split(separator: ",").map { entry in
            let text = entry.trimmingCharacters(in: .whitespaces)
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), let address = Self.bytes(of: String(parts[0])) else { throw Invalid(entry: text) }
            let width = address.count * 8
            guard let prefixLength = parts.count == 2 ? Int(parts[1]) : width, (0...width).contains(prefixLength) else { throw Invalid(entry: text) }
            return Network(address: address, prefixLength: prefixLength)
        }
    }

    public func trusts(_ address: SocketAddress) -> Bool {
        guard let bytes = address.clientBytes else { return false }
        return networks.contains { $0.contains(bytes) }
    }

    /// Who sent a request that reached the server from `peer` with these `X-Forwarded-For` values:
    /// `peer` unless it is trusted; then the list is read from its end (each proxy appends the address
    /// it was reached from), and the first address not trusted is the client (the first of the list
    /// when every one is). An entry that is no address, where one was needed, or a chain longer than
    /// `maximumHops`, leaves `peer`.
    public func client(peer: SocketAddress?, forwardedFor: [String]) -> SocketAddress? {
        guard let peer, trusts(peer) else { return peer }
        var hops = HopsFromTheEnd(forwardedFor)
        var client: SocketAddress?
        for _ in 0..<Self.maximumHops {
            guard let hop = hops.next() else { return client ?? peer }
            guard let address = Self.address(hop) else { return peer }
            if !trusts(address) { return address }
            client = address
        }
        return peer
    }

    /// More proxies than any deployment puts in front of a server: past them, the header is not read.
    static let maximumHops = 16

    /// The list's entries, last first, each found when asked: a long header costs only those read.
    private struct HopsFromTheEnd: IteratorProtocol {
        private var lines: [Substring]

        init(_ lines: [String]) {
            self.lines = lines.map { Substring($0) }
        }

        mutating func next() -> String? {
            guard let line = lines.popLast() else { return nil }
            guard let comma = line.lastIndex(of: ",") else { return line.trimmingCharacters(in: .whitespaces) }
            lines.append(line[..<comma])
            return line[line.index(after: comma)...].trimmingCharacters(in: .whitespaces)
        }
    }

    /// An `X-Forwarded-For` entry as an address: `192.0.2.1`, `2001:db8::1`, and the forms with a port
    /// some proxies write (`192.0.2.1:443`, `[2001:db8::1]:443`).
    static func address(_ entry: String) -> SocketAddress? {
        var host = entry
        if host.hasPrefix("["), let end = host.firstIndex(of: "]") {
            host = String(host[host.index(after: host.startIndex)..<end])
        } else if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
            host = String(host[..<colon])
        }
        return try? SocketAddress(ipAddress: host, port: 0)
    }

    private static func bytes(of text: String) -> [UInt8]? {
        (try? SocketAddress(ipAddress: text, port: 0))?.clientBytes
    }
}
