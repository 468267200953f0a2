import AlbumKit
import AlbumKitBundle
import AlbumKitTesting
import Foundation
import Testing

/// Inputs the fuzz targets (Fuzz/) found crashing, kept so that they never crash again.
@Suite struct FuzzRegressionTests {
    /// fuzz-bundle: a damaged zip whose entry data libarchive answers with ARCHIVE_WARN (-20),
    /// which the reader took for a byte count and sliced its buffer with (a trap).
    static let warningFromEntryData = Data(base64Encoded: "UEsDBBQAAAAIAKocd10r05kudAAAAIYAAAALAAAAYWxidW1zLmpzb24dyE0OAiEMQOG7sPZncKClcwAvYFwZF0BbQzKJCaCLMd5d4u597/Yxhc1i2t6anemlrzJ0EeHBWCtpffj82rbh/HxLvdZ1nH+2oybwgOwIYYLZukgQvPWSlIY5i5BmVUQMhHkOTjgIxBNwYrQ0HR5Fzff+A1BLAwQUAAAACACqHHddGi4LLdUAAAB5AQAAEAAAAGNoZWNrc3Vtcy5zaGEyNTaljltOQzEMRP+7iqygxHHix3Kc2EZFtJW4F9ZPUJfA50gzZ47Y4KWOTYmNsbvjqMoQgJWVeTXxCq1Op2UyidPTfWhOE0mwUu72uGUc5/XjeD4uLMsq25A2aw+DJkYzYZlCzQp9Be39nMweCkhTFrs0a4rQhngp9jm/78eLJrJxiIyoil7dOgQReSP2LvsAYhiOLZTQYfStbsnCbc26ZEApx2lnvGA5afztlKkSQjelXRkxU3f2FaG5MplZlBdKD5cga+TTGbSWsp4/8XW8/Rd0fb/l5RdQSwMEFAAAAAgAqhx3XY1NTF8uAAAAMQAAAAoAAABzdGF0ZS5qc29uq1YqSy0qzszPU7Iy1FFKLi0qSs0rUbJSKtY1VNJRKs1LyVeyio7VUSpKhbBqAVBLAwQUAAAACACqHHddaVptPDQAAAA3AAAADQAAAG1hbmlmZXN0Lmpzb26rVkrLL8pNLFGyUkrMSSrNzc4s0U0qzUvJSVXSUSpLLSrOzM9TsjLUgcg655fmAZUa1gIAUEsDBAoAAAAAAKocd10AAAAAAAAAAAAAAAAHAAAAY292ZXJzLx9LAwQKAAAAAACqHHddEL8jvwoAAAAKAAAASwAAAGNvdmVycy9mYjY1NjdkNDk3NjA2MzE0YTk2ODUxNWViZjkwNjNkY2VlOWZjZmY3Nzc4OTdjMzg0ZWQ4ZTZhMjZkYmQ3MTkwLmdpZkdJRjg5YQEAAQBQSwECHgMUAAAACACqHHddK9OZLnQAAACGAAAACwAAAAAAAAABAAAApIEAAAAAYWxidW1zLmpzb25QSwECHgMUAAAACACqHHddGi4LLdUAAAB5AQAAEAAAAAAAAAABAAAApIGdAAAAY2hlY2tzdW1zLnNoYTI1NlBLAQIeAxQAAAAIAKocd12NTUxfLgAAADEAAAAKAAAAAAAAAAEAAACkgaABAABzdGF0ZS5qc29uUEsBAh4DFAAAAAgAqhx3XWlabTw0AAAANwAAAA0AAAAAAAAAAQAAAKSB9gEAAG1hbmlmZXN0Lmpzb25QSwECHgMKAAAAAACqHHddAAAAAAAAAAAAAAAABwAAAAAAAAAAABAA7UFVAgAAY292ZXJzL1BLAQIeAwoAAAAAAKocd10QvyO/CgAAAAoAAABLAAAAAAAAAAAAAACkgXoCAABjb3ZlcnMvZmI2NTY3ZDQ5NzYwNjMxNGE5Njg1MTVlYmY5MDYzZGNlZTlmY2ZmNzc3ODk3YzM4NGVkOGU2YTI2ZGJkNzE5MC5naWZQSwW6BgAAAAAGAAYAmAEAAO0CAAAAAA==")!

    @Test func aWarningFromEntryDataIsAnErrorNotACount() async throws {
        let problems = try await BundleVerifier.problems(inArchive: Self.warningFromEntryData, name: "fuzz.zip", limits: Limits())
        #expect(problems.last?.hasPrefix("fuzz.zip entry albums.json: ") == true, "\(problems)")
        let reader = try ArchiveEntryReader(bytes: Self.warningFromEntryData, name: "fuzz.zip", limits: Limits())
        let error = try #require(throws: AlbumKitError.self) {
            while try reader.next() != nil { _ = try reader.readAll(limit: 1 << 20, limitName: "test") }
        }
        #expect(error.kind == .unreadableInput)
    }

    /// The same path, readable: a zip whose CRC does not match its entry (made by Python's
    /// zipfile, then damaged) is refused by import with libarchive's reason.
    @Test func aZipEntryWithABadCRCIsRefused() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let output = workspace.path("crc.zip")
        try PythonArchive.write(try SampleBundle().entries(), kind: "zip", to: output)
        var bytes = try Data(contentsOf: output)
        bytes[bytes.startIndex + 14] ^= 0x01  // the first local header's CRC-32 (manifest.json)
        let central = try #require(bytes.range(of: Data("PK\u{1}\u{2}".utf8)))
        bytes[central.lowerBound + 16] ^= 0x01  // and the central directory's copy of it
        try bytes.write(to: output)
        try await BundleWorkflow.importing.expectRefused(output, saying: "entry manifest.json: ZIP bad CRC")
    }

    /// fuzz-plist: an XML property list with bytes that are not UTF-8 inside an `<integer>`,
    /// on which Foundation's XML reader traps; refused as unreadable before it reaches it.
    static let xmlPlistNotUTF8 = Data(base64Encoded: "PD94bWwgZW5jb2Rpbmc9IlVURi04Ij8+CjwhRE9DVFlQRT4KPHBsaXN0IHZlci4wIj4KPGFycmF5PgoJPGRpY3Q+CgkJPGtleT5hcnRpc3Q8L2tleT4KCQk8c3RyaW5nPkpvbmkgTWl0Y2hlbGw8L3N0cmluZz4KCQk8a2V5PnRpdGxlPC9rZXk+CgkJPHN0cmluZz5CbHVlPC9zdHJpbmc+CgkJPGtleT55ZWFyPC9rZXk+CgkJPGludGVnZXI+/////////3cwOTg1PC9pbnRlZ2VyPgoJPC9kaWN0PgoJPGRpY3Q+CgkJPGtleT5hcnRpc3Q8L2tleT4KCQk8c3RyaW5nPsOEdHJpbmc+UG9wPC9zdHJpbmc+CgkJPGtleT50aXRsZTwva2V5PgoJCTxzdHJpbmc+5p2x5LqsPC9zdHJpbmc+Cgk8L2RpY3Q+CjwvYXJyYXk+CjwvcGxpc3Q+Cg==")!

    @Test func anXMLPropertyListThatIsNotUTF8IsRefused() throws {
        let error = try #require(throws: AlbumKitError.self) {
            try AlbumListSource(format: PropertyListFormat()).albumItems(in: Self.xmlPlistNotUTF8, input: "fuzz.plist", label: "fuzz.plist")
        }
        #expect(error.kind == .unreadableInput)
        #expect(error.description.contains("fuzz.plist") && error.description.contains("not valid UTF-8"), "\(error)")
    }

    /// fuzz-plist (the CI run of ce9d6ed): an XML property list nested a few thousand levels
    /// deep, on which Foundation's XML reader overflows the stack. Refused before it reaches it,
    /// in both places a property list is read: an imported list and a plist library; a list
    /// nested within the limit, however odd its comments and sections, reads on.
    @Test(arguments: ["<array>", "<dict><key>k</key>", "<array><!-- <x> --><![CDATA[<y>]]><?pi <z>?>"])
    func anXMLPropertyListNestedTooDeeplyIsRefused(level: String) throws {
        let close = level.hasPrefix("<array>") ? "</array>" : "</dict>"
        let deep = Data(("<?xml version=\"1.0\"?><plist version=\"1.0\">" + String(repeating: level, count: 20_000)
            + String(repeating: close, count: 20_000) + "</plist>").utf8)
        let error = try #require(throws: AlbumKitError.self) {
            try AlbumListSource(format: PropertyListFormat()).albumItems(in: deep, input: "fuzz.plist", label: "fuzz.plist")
        }
        #expect(error.kind == .unreadableInput)
        #expect(error.description.contains("fuzz.plist") && error.description.contains("deeper than 256"), "\(error)")
        #expect(throws: DecodingError.self) { try PropertyListFormat().decode([String].self, from: deep) }
        let shallow = Data(("<plist>" + String(repeating: level, count: 200) + String(repeating: close, count: 200) + "</plist>").utf8)
        let refusal = try #require(throws: AlbumKitError.self) {
            try AlbumListSource(format: PropertyListFormat()).albumItems(in: shallow, input: "ok.plist", label: "ok.plist")
        }
        #expect(!refusal.description.contains("deeper than"), "\(refusal)")
    }
}
