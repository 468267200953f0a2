import AlbumKit
import HTTPCovers
import Testing

/// Link-local and metadata addresses are refused, others are not.
@Suite struct AddressPolicyTests {
    @Test(arguments: ["169.254.169.254", "169.254.0.1", "fe80::1", "FE80::abcd", "::ffff:169.254.169.254", "fd00:ec2::254"])
    func refused(_ address: String) { #expect(AddressPolicy.isRefused(address)) }

    @Test(arguments: ["127.0.0.1", "10.0.0.1", "8.8.8.8", "::1", "2001:db8::1", "169.253.255.255", "example.invalid"])
    func allowed(_ address: String) { #expect(!AddressPolicy.isRefused(address)) }

    @Test func aRefusedAddressIsNamedInTheError() throws {
        let error = try #require(throws: AlbumKitError.self) { try AddressPolicy().addresses(for: "169.254.1.1", port: 80, reference: "http://169.254.1.1/c.png") }
        #expect(error.kind == .unsupported)
        #expect(error.description == "http://169.254.1.1/c.png: 169.254.1.1 is the link-local or metadata address 169.254.1.1; refused")
    }

    @Test func aBracketedIPv6AddressIsCheckedWithoutItsBrackets() throws {
        let error = try #require(throws: AlbumKitError.self) { try AddressPolicy().addresses(for: "[fe80::1]", port: 80, reference: "r") }
        #expect(error.kind == .unsupported)
        #expect(error.description == "r: [fe80::1] is the link-local or metadata address fe80::1; refused")
    }

    @Test func explicitlyAllowedAddressPasses() throws {
        #expect(try AddressPolicy(allowed: ["169.254.1.1"]).addresses(for: "169.254.1.1", port: 80, reference: "r") == ["169.254.1.1"])
    }

    /// One refused address among a name's answers refuses the name.
    @Test func oneRefusedAnswerRefusesTheName() throws {
        let policy = AddressPolicy { _, _ in ["127.0.0.1", "169.254.169.254"] }
        let error = try #require(throws: AlbumKitError.self) { try policy.addresses(for: "cdn.example", port: 443, reference: "r") }
        #expect(error.kind == .unsupported)
        #expect(error.description == "r: cdn.example is the link-local or metadata address 169.254.169.254; refused")
    }
}
