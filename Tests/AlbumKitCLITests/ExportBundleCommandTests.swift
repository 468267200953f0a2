import AlbumKitTesting
import Foundation
import Testing

/// `albumkit export NAME` writes the bundle format its name asks for (SPEC 3): each is
/// checked by the compressor's own `-t`, listed and unpacked by GNU tar, its checksums
/// confirmed by `sha256sum -c`, and restored into an empty library as it was.
@Suite struct ExportBundleCommandTests {
    /// Each ending, the first bytes its file must start with (tar: "ustar" at 257) and the
    /// tool that tests the compression.
    static let formats: [(ending: String, magic: [UInt8], test: [String]?)] = [
        ("tar.gz", [0x1F, 0x8B], ["/usr/bin/gzip", "-t"]), ("tgz", [0x1F, 0x8B], ["/usr/bin/gzip", "-t"]),
        ("tar.zst", [0x28, 0xB5, 0x2F, 0xFD], ["/usr/bin/zstd", "-q", "-t"]), ("tar.xz", [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], ["/usr/bin/xz", "-t"]),
        ("tar", Array("ustar".utf8), nil),
    ]

    @Test(arguments: formats.map(\.ending)) func exportWritesTheFormatItsNameAsksFor(_ ending: String) throws {
        let format = try #require(Self.formats.first { $0.ending == ending })
        let cli = try CLIRunner()
        defer { cli.remove() }
        try cli.run("init", "--starter")
        try cli.run("select", "2")
        let name = "backup.\(ending)"
        let exported = try cli.run("export", name)
        #expect(exported.status == 0, "\(exported.error)")
        let file = cli.folder.appendingPathComponent(name)
        let bytes = try Data(contentsOf: file)
        let start = ending == "tar" ? 257 : 0
        #expect(Array(bytes[start..<(start + format.magic.count)]) == format.magic, "\(name) is not what its name says")
        if let test = format.test {
            let checked = try runProgram(test[0], Array(test.dropFirst()) + [file.path])
            #expect(checked.status == 0, "\(test[0]) -t: \(checked.output)")
        }
        let listing = try runProgram("/bin/tar", ["-tf", file.path])
        #expect(listing.status == 0)
        let entries = listing.output.split(separator: "\n").map(String.init)
        #expect(entries.first == "manifest.json" && entries.dropFirst().first == "albums.json" && entries.last == "checksums.sha256", "\(entries)")
        let unpacked = cli.folder.appendingPathComponent("unpacked")
        try FileManager.default.createDirectory(at: unpacked, withIntermediateDirectories: true)
        #expect(try runProgram("/bin/tar", ["-xf", file.path, "-C", unpacked.path]).status == 0)
        let sums = try runProgram("/usr/bin/sha256sum", ["-c", "checksums.sha256"], in: unpacked)
        #expect(sums.status == 0, "\(sums.output)")
        #expect(try cli.run("verify", name).status == 0)

        let copy = try CLIRunner()
        defer { copy.remove() }
        try copy.run("init")
        #expect(try copy.run("restore", file.path).status == 0)
        #expect(try copy.run("list", "--json").output == (try cli.run("list", "--json").output), "\(name) must restore the library as it was")
    }
}
