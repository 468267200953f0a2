import AlbumKit
import AlbumKitTesting
import Crypto
import Foundation
import Testing

/// A real beets library and its exports through the built binary, compared with what
/// `beet ls -a` lists; the database is never changed.
@Suite struct BeetsCommandTests {
    private func digest(_ file: URL) throws -> String {
        SHA256.hash(data: try Data(contentsOf: file)).map { String(format: "%02x", $0) }.joined()
    }

    @Test func theLibraryAndBothExportsImportAsBeetsListsThem() throws {
        let beets = try BeetsFixture()
        defer { beets.folder.remove() }
        let cli = try CLIRunner()
        defer { cli.remove() }
        try Data("covers:\n  fileRoots: [\(beets.music.path)]\n".utf8).write(to: cli.folder.appendingPathComponent("albumkit.yaml"))
        #expect(try cli.run("init").status == 0)
        let before = try digest(beets.database)

        let dry = try cli.run("import", "--dry-run", beets.database.path)
        #expect(dry.status == 0 && dry.output.contains("3 new"), "\(dry.output)\(dry.error)")
        #expect(try cli.listedAlbums().isEmpty, "a dry run writes nothing")

        let imported = try cli.run("import", beets.database.path)
        #expect(imported.status == 0, "\(imported.error)")
        let expected = try beets.listedAlbums().map { row in
            [row[2], row[1], row[3] == "0000" ? "" : row[3], row[4], row[5].isEmpty ? "" : "mb:\(row[5])"]
        }.sorted { $0[0] < $1[0] }
        let albums = try cli.listedAlbums().map { album in
            ["title", "artist", "year", "genre"].map { album[$0] as? String ?? "?" } + [(album["id"] as? String).map { $0.hasPrefix("mb:") ? $0 : "" } ?? "?"]
        }.sorted { $0[0] < $1[0] }
        #expect(albums == expected)
        #expect(expected.count == 3)
        let covers = try cli.listedAlbums().filter { $0["cover"] as? String == "stored" }.map { $0["title"] as? String }
        #expect(covers == ["OK Computer"], "the art beets keeps, read under covers.fileRoots")

        for export in [beets.albumExport, beets.trackExport, beets.database] {
            let again = try cli.run("import", export.path)
            #expect(again.status == 0 && again.output.contains("0 added, 3 skipped"), "\(export.lastPathComponent): \(again.output)\(again.error)")
        }
        #expect(try digest(beets.database) == before, "the database is never written")
        #expect(!FileManager.default.fileExists(atPath: beets.database.path + "-journal"))
    }

    /// Real beets libraries hold albums with an empty name; they are skipped and named, and
    /// the rest imports (they refused the whole library before); `--strict` refuses it.
    @Test func anAlbumWithAnEmptyNameIsSkippedAndNamedOrRefusedWithStrict() throws {
        let beets = try BeetsFixture()
        defer { beets.folder.remove() }
        let modified = try beets.beet("modify", "-y", "-a", "album:Timeless", "album=")
        #expect(modified.status == 0, "\(modified.output)")
        let id = try #require(try beets.listedAlbums().first { $0[2].isEmpty }?[0])
        let cli = try CLIRunner()
        defer { cli.remove() }
        #expect(try cli.run("init").status == 0)

        let strict = try cli.run("import", "--strict", beets.database.path)
        #expect(strict.status != 0 && strict.errorLines.count == 1 && strict.errorLines[0].contains("album id \(id)"), "\(strict.error)")
        #expect(try cli.listedAlbums().isEmpty)

        let result = try cli.run("import", beets.database.path)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("2 added") && result.output.contains("1 not albums skipped"), "\(result.output)")
        #expect(result.error.contains("\(beets.database.path) album id \(id) ''") && result.error.contains("field 'title'"), "\(result.error)")
        #expect(Set(try cli.listedAlbums().compactMap { $0["title"] as? String }) == ["OK Computer", "Homogénic & Co"])
    }

    @Test func artOutsideTheRootsAndBesideTheDatabaseIsNotReadWithoutPermission() throws {
        let beets = try BeetsFixture()
        defer { beets.folder.remove() }
        let cli = try CLIRunner()
        defer { cli.remove() }
        #expect(try cli.run("init").status == 0)
        let result = try cli.run("import", beets.database.path)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("not under any of covers.fileRoots"), "\(result.error)")
        #expect(try cli.listedAlbums().allSatisfy { $0["cover"] as? String == "none" })
    }

    @Test func damagedOrForeignDatabasesAreRefusedAndNothingIsImported() throws {
        let beets = try BeetsFixture()
        defer { beets.folder.remove() }
        let cli = try CLIRunner()
        defer { cli.remove() }
        #expect(try cli.run("init", "--starter").status == 0)
        let before = try cli.listedAlbums().count
        let damages = [
            "year is text": "UPDATE albums SET year = 'nineteen' WHERE album = 'Timeless'",
            "album is a blob": "UPDATE albums SET album = x'00ff' WHERE album = 'Timeless'",
            "not beets": "DROP TABLE albums",
            "garbage": "",
        ]
        for (kind, sql) in damages {
            let file = cli.folder.appendingPathComponent("\(kind).db")
            try FileManager.default.copyItem(at: beets.database, to: file)
            if sql.isEmpty {
                var bytes = try Data(contentsOf: file)
                for index in stride(from: 100, to: bytes.count, by: 7) { bytes[index] ^= 0x5A }
                try bytes.write(to: file)
            } else {
                let script = "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(sys.argv[2]); c.commit()"
                #expect(try runProgram("/usr/bin/env", ["python3", "-c", script, file.path, sql]).status == 0)
            }
            let result = try cli.run("import", file.path)
            #expect(result.status != 0, "\(kind)")
            let errors = result.errorLines
            #expect(errors.count == 1 && errors[0].contains(file.path), "\(kind): \(result.error)")
            if sql.hasPrefix("UPDATE") {
                #expect(errors[0].contains("album id 3"), "\(kind): \(result.error)")
            }
            #expect(try cli.listedAlbums().count == before, "\(kind): nothing imported")
        }
    }
}
