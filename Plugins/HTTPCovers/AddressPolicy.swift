import AlbumKit
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Which addresses a cover may come from: never a link-local or cloud-metadata address
/// (169.254.0.0/16, fe80::/10, fd00:ec2::254) — an imported bundle must not make us read a
/// machine's credentials — unless the address is explicitly allowed.
///
/// A host name is resolved once, every address it resolves to is checked, and the fetcher
/// connects to the addresses ``addresses(for:port:reference:)`` returns and to no others: a
/// second lookup could answer differently (DNS rebinding) and reach a refused address.
public struct AddressPolicy: Sendable {
    /// Turns a host (a name or a numeric address) and a port into numeric addresses, or
    /// throws an ``AlbumKitError`` naming the host.
    public typealias Resolver = @Sendable (_ host: String, _ port: Int) throws -> [String]

    /// Addresses allowed even though they are link-local (for a test host).
    public var allowed: Set<String>
    /// How host names are resolved: the system resolver (`getaddrinfo`) unless replaced (a
    /// test plays a DNS server whose answer changes between lookups).
    public var resolver: Resolver

    public init(allowed: Set<String> = [], resolver: @escaping Resolver = AddressPolicy.systemResolver) {
        self.allowed = allowed
        self.resolver = resolver
    }

    /// The numeric addresses to connect to for `host` (a name, a numeric address, or a
    /// bracketed IPv6 address), in the resolver's order, resolved once. Throws when any of
    /// them is refused, or when there is none; `reference` (the cover URL) names it in errors.
    public func addresses(for host: String, port: Int, reference: String) throws -> [String] {
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        let addresses: [String]
        do {
            addresses = try resolver(bare, port)
        } catch let error as AlbumKitError {
            throw AlbumKitError(error.kind, "\(reference): \(error.description)")
        }
        for address in addresses where !allowed.contains(address) && Self.isRefused(address) {
            throw AlbumKitError(.unsupported, "\(reference): \(host) is the link-local or metadata address \(address); refused")
        }
        guard !addresses.isEmpty else {
            throw AlbumKitError(.connection, "\(reference): \(host) resolves to no address")
        }
        return addresses
    }

    /// Whether `address` (numeric IPv4 or IPv6) is link-local or a metadata address.
    public static func isRefused(_ address: String) -> Bool {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            let value = UInt32(bigEndian: v4.s_addr)
            return value >> 16 == 0xA9FE  // 169.254.0.0/16
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return false }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        let mappedV4 = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
        if mappedV4 { return bytes[12] == 169 && bytes[13] == 254 }
        let linkLocal = bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80  // fe80::/10
        let awsMetadata = bytes[0] == 0xFD && bytes[1] == 0x00 && bytes[2] == 0x0E && bytes[3] == 0xC2
        return linkLocal || awsMetadata
    }

    /// Whether `host` is a numeric IPv4 or IPv6 address (no lookup needed).
    public static func isNumeric(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    /// The system resolver: the numeric addresses `getaddrinfo` gives for `host`, in its order.
    public static let systemResolver: Resolver = { host, port in
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let code = getaddrinfo(host, String(port), &hints, &list)
        guard code == 0, let first = list else {
            throw AlbumKitError(.connection, "cannot resolve \(host): \(String(cString: gai_strerror(code)))")
        }
        defer { freeaddrinfo(first) }
        var addresses: [String] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(entry.pointee.ai_addr, entry.pointee.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 {
                addresses.append(String(cString: buffer))
            }
            cursor = entry.pointee.ai_next
        }
        return addresses
    }
}
