import HTTPCovers
import Testing

/// Link-local and metadata addresses are refused, others are not.
@Suite struct AddressPolicyTests {
    @Test(arguments: ["169.254.169.254", "169.254.0.1", "fe80::1", "FE80::abcd", "::ffff:169.254.169.254", "fd00:ec2::254"])
    func refused(_ address: String) { #expect(AddressPolicy.isRefused(address)) }

    @Test(arguments: ["127.0.0.1", "10.0.0.1", "8.8.8.8", "::1", "2001:db8::1", "169.253.255.255", "example.invalid"])
    func allowed(_ address: String) { #expect(!AddressPolicy.isRefused(address)) }

    @Test func explicitlyAllowedAddressPasses() throws {
        #expect(throws: (any Error).self) { try AddressPolicy().check(host: "169.254.1.1", port: 80, reference: "r") }
        try AddressPolicy(allowed: ["169.254.1.1"]).check(host: "169.254.1.1", port: 80, reference: "r")
    }
}
