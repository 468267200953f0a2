import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

/// Discogs and RYM exports through the built binary: imported once, then only duplicates;
/// hostile files refused with one error line and nothing written.
@Suite struct CSVExportCommandTests {
    @Test func bothExportsImportAndASecondImportGivesOnlyDuplicates() throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        let discogs = cli.folder.appendingPathComponent("discogs-collection.csv")
        let rym = cli.folder.appendingPathComponent("rym-export.csv")
        try ExportFixture.write(header: ExportFixture.discogsHeader, rows: [
            ExportFixture.discogs(artist: "Mono (2)", title: "Hymn", released: "2009", id: "1722539"),
            ExportFixture.discogs(artist: "Nirvana", title: "Nevermind", released: "0", id: "367084"),
        ], to: discogs)
        try ExportFixture.write(header: ExportFixture.rymHeader, rows: [
            ExportFixture.rym(id: "1234", first: "The", last: "Beatles", title: "Abbey Road", date: "1969"),
        ], to: rym)
        #expect(try cli.run("init").status == 0)
        #expect(try cli.run("import", "--dry-run", discogs.path, rym.path).status == 0)
        #expect(try cli.listedAlbums().isEmpty, "a dry run writes nothing")

        let first = try cli.run("import", discogs.path, rym.path)
        #expect(first.status == 0 && first.output.contains("3 added"), "\(first.output)\(first.error)")
        let albums = try cli.listedAlbums()
        #expect(albums.map { $0["id"] as? String } == ["discogs:1722539", "discogs:367084", "rym:1234"])
        #expect(albums.map { $0["artist"] as? String } == ["Mono", "Nirvana", "The Beatles"])
        #expect(albums.map { $0["year"] as? String } == ["2009", "", "1969"])

        let second = try cli.run("import", rym.path, discogs.path)
        #expect(second.status == 0 && second.output.contains("0 added, 3 skipped"), "\(second.output)")
    }

    @Test(arguments: ["missing fields", "wrong type", "garbage", "100 MB line", "control character"])
    func hostileExportsAreRefusedAndNothingIsImported(kind: String) throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        #expect(try cli.run("init", "--starter").status == 0)
        let before = try cli.listedAlbums().count
        let file = cli.folder.appendingPathComponent("collection.csv")
        let good = ExportFixture.discogs(artist: "A", title: "Fine", released: "1991", id: "1")
        switch kind {
        case "missing fields":
            try ExportFixture.write(header: ExportFixture.discogsHeader, rows: [good, ["C-1", "Artist"]], to: file)
        case "wrong type":
            try ExportFixture.write(header: ExportFixture.discogsHeader, rows: [good, ExportFixture.discogs(artist: "B", title: "T", released: "1991", id: "12ab")], to: file)
        case "garbage":
            try ExportFixture.write(header: ExportFixture.discogsHeader, rows: [good], to: file)
            let handle = try FileHandle(forWritingTo: file)
            try handle.seekToEnd()
            try handle.write(contentsOf: Data((0..<65536).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 7) }))
            try handle.close()
        case "100 MB line":
            try ExportFixture.write(header: ExportFixture.discogsHeader, rows: [good], to: file)
            let handle = try FileHandle(forWritingTo: file)
            try handle.seekToEnd()
            let chunk = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
            for _ in 0..<100 { try handle.write(contentsOf: chunk) }
            try handle.write(contentsOf: Data(",B,T,L,F,5,1991,2,,,,,\r\n".utf8))
            try handle.close()
        default:
            try ExportFixture.write(header: ExportFixture.discogsHeader, rows: [good, ExportFixture.discogs(artist: "Bell\u{7}", title: "T", released: "1991", id: "2")], to: file)
        }
        let result = try cli.run("import", file.path)
        #expect(result.status != 0)
        let errors = result.errorLines
        #expect(errors.count == 1 && errors[0].contains(file.path) && (errors[0].contains("line 4") || errors[0].contains("row 2")), "the good row spans lines 2 and 3: \(result.error)")
        #expect(try cli.listedAlbums().count == before, "nothing imported")
    }
}
