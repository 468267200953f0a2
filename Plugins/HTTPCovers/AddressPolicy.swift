import AlbumKit
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Which hosts a cover may come from: never a link-local or cloud-metadata address
/// (169.254.0.0/16, fe80::/10, fd00:ec2::254) — an imported bundle must not make us read a
/// machine's credentials — unless the address is explicitly allowed. Host names are
/// resolved and every address they resolve to is checked.
public struct AddressPolicy: Sendable {
    /// Addresses allowed even though they are link-local (for a test host).
    public var allowed: Set<String>

    public init(allowed: Set<String> = []) { self.allowed = allowed }

    /// Throws when `host` is or resolves to a refused address.
    public func check(host: String, port: Int, reference: String) throws {
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        for address in Self.resolve(bare, port: port) where !allowed.contains(address) && Self.isRefused(address) {
            throw AlbumKitError(.unsupported, "\(reference): \(host) is the link-local or metadata address \(address); refused")
        }
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

    /// The numeric addresses `host` stands for (itself when it is numeric).
    static func resolve(_ host: String, port: Int) -> [String] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { return [host] }
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
