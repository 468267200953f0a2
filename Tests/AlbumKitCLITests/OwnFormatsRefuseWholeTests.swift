import AlbumKitTesting
import Foundation
import Testing

/// A bundle or an album list is not another tool's export (SPEC 9): an album in it that breaks
/// the field rules still refuses the whole input, as a backup restores exactly or not at all;
/// only other tools' records are skipped.
@Suite struct OwnFormatsRefuseWholeTests {
    @Test(arguments: ["bundle.tar.gz", "albums.json"])
    func anInvalidAlbumRefusesTheWholeInput(name: String) throws {
        let cli = try CLIRunner()
        defer { cli.remove() }
        #expect(try cli.run("init", "--starter").status == 0)
        let before = try cli.listedAlbums().count
        let albums = #"[{"title": "Fine", "artist": "A"}, {"title": "  ", "artist": "B"}]"#
        let script = """
            import io, sys, tarfile
            albums = sys.argv[1].encode()
            if sys.argv[2].endswith('.json'):
                open(sys.argv[2], 'wb').write(albums)
            else:
                with tarfile.open(sys.argv[2], 'w:gz') as t:
                    info = tarfile.TarInfo('albums.json'); info.size = len(albums); t.addfile(info, io.BytesIO(albums))
            """
        let made = try runProgram("/usr/bin/env", ["python3", "-c", script, albums, cli.folder.appendingPathComponent(name).path])
        try #require(made.status == 0, "\(made.output)")

        let result = try cli.run("import", name)
        #expect(result.status != 0)
        #expect(result.errorLines.count == 1 && result.errorLines[0].contains(name) && result.errorLines[0].contains("field 'title'"), "\(result.error)")
        #expect(try cli.listedAlbums().count == before, "nothing imported")
    }
}
