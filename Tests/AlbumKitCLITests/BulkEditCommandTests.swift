import AlbumKitTesting
import Foundation
import Testing

/// `update` and `remove` of many albums (one undo step each, confirmed first), `add` of a
/// duplicate, and how `undo`, `redo` and `update` put what changed in words.
@Suite struct BulkEditCommandTests {
    private func genres(_ cli: CLIRunner) throws -> [String] {
        try cli.run("list", "--format", "$genre").output.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    @Test func bulkUpdateShowsTheChangesAndIsOneUndoStep() throws {
        let cli = try KnownLibrary.make()
        defer { cli.remove() }
        let before = try genres(cli)
        let updated = try cli.run("update", "artist:bowie", "--set", "genre=Glam", "--yes")
        #expect(updated.status == 0, "\(updated.error)")
        #expect(updated.output.hasPrefix("""
            This changes 4 albums:
              updated 'Best of Bowie': genre 'Rock' → 'Glam'
              updated 'Low': genre 'Art rock' → 'Glam'
              updated '"Heroes"': genre 'Art rock' → 'Glam'
              updated 'Station to Station': genre '' → 'Glam'
            """))
        #expect(try KnownLibrary.positions(cli, ["genre:glam"]) == [1, 6, 7, 8])
        let undo = try cli.run("undo")
        #expect(undo.output.hasPrefix("Undid: updated 4 albums: 'Best of Bowie' (genre 'Rock' → 'Glam'), 'Low'"), "\(undo.output)")
        #expect(try genres(cli) == before, "one undo takes back all four")
        #expect(try cli.run("redo").output.hasPrefix("Redid: updated 4 albums"))
        #expect(try KnownLibrary.positions(cli, ["genre:glam"]) == [1, 6, 7, 8])
    }

    @Test func updateOfOneSaysWhatChanged() throws {
        let cli = try KnownLibrary.make()
        defer { cli.remove() }
        let updated = try cli.run("update", "6", "--year", "1976", "--genre", "Krautrock")
        #expect(updated.output == "Updated 'Low': genre 'Art rock' → 'Krautrock', year 1977 → 1976\n")
        #expect(try cli.run("undo").output == "Undid: updated 'Low': genre 'Art rock' → 'Krautrock', year 1977 → 1976\n")
        let invalid = try cli.run("update", "6", "--year", "-5")
        #expect(invalid.status == 1)
        #expect(invalid.error == "error: album 'Low': field 'year' must be empty or 1 to 4 digits, not '-5'\n")
    }

    @Test func bulkRemoveIsOneUndoStepBackInPlace() throws {
        let cli = try KnownLibrary.make()
        defer { cli.remove() }
        let titles = try KnownLibrary.titles(cli)
        let removed = try cli.run("rm", "year:..1980", "--yes")
        #expect(removed.status == 0, "\(removed.error)")
        #expect(removed.output.contains("This removes 3 albums:\n  6  'Low' by David Bowie\n  7  '\"Heroes\"' by David Bowie\n  8  'Station to Station' by David Bowie\n"))
        #expect(try KnownLibrary.titles(cli).count == 7)
        let undo = try cli.run("undo")
        #expect(undo.output == "Undid: removed 3 albums: 'Low' from 6, '\"Heroes\"' from 7, 'Station to Station' from 8\n")
        #expect(try KnownLibrary.titles(cli) == titles)
    }

    @Test(arguments: [
        (["update", "artist:bowie", "--set", "genre=Glam"], "error: the query picks 4 albums; add --yes to change them all"),
        (["remove", "artist:bowie"], "error: the query picks 4 albums; add --yes to remove them all"),
        (["rm", "cover:stored"], "error: the query picks 5 albums; add --yes to remove them all"),
    ])
    func aQueryPickingSeveralIsRefusedWithoutATerminalOrYes(_ arguments: [String], _ message: String) throws {
        try KnownLibrary.expectFailure(arguments, status: 1, message: message)
    }

    @Test func onATerminalTheQuestionIsAskedAndNoChangesNothing() throws {
        let cli = try KnownLibrary.make()
        defer { cli.remove() }
        let declined = try TerminalSession(cli, ["remove", "artist:bowie"], columns: 100, input: "n\n", environment: ["NO_COLOR": "1"])
        #expect(declined.status == 1)
        #expect(declined.plain.contains("Remove these 4 albums? [y/N]"), "\(declined.screen)")
        #expect(declined.plain.contains("error: nothing changed"))
        #expect(try KnownLibrary.titles(cli).count == 10)
        let accepted = try TerminalSession(cli, ["remove", "artist:bowie"], columns: 100, input: "y\n")
        #expect(accepted.status == 0, "\(accepted.screen)")
        #expect(try KnownLibrary.titles(cli).count == 6)
    }

    @Test func moveUndoAndRedoSayWhatMoved() throws {
        let cli = try KnownLibrary.make()
        defer { cli.remove() }
        #expect(try cli.run("move", "6", "--to", "1").output == "Moved 'Low' from 6 to 1.\n")
        #expect(try cli.run("undo").output == "Undid: moved 'Low' from 6 to 1\n")
        #expect(try cli.run("redo").output == "Redid: moved 'Low' from 6 to 1\n")
        let added = try cli.run("add", "--title", "Lodger", "--artist", "David Bowie", "--year", "1979").output
        #expect(added.hasPrefix("Added 'Lodger' by David Bowie at position 11 (id "), "\(added)")
        #expect(try cli.run("undo").output == "Undid: added 'Lodger' at 11\n")
        let inserted = try cli.run("add", "--title", "Lodger", "--artist", "David Bowie", "--year", "1979", "--at", "2").output
        #expect(inserted.hasPrefix("Added 'Lodger' by David Bowie at position 2 (id "), "\(inserted)")
        #expect(try cli.run("show", "2").output.contains("title:    Lodger"))
    }

    @Test func addingAnAlbumAlreadyThereAsksOrNeedsYes() throws {
        let cli = try KnownLibrary.make()
        defer { cli.remove() }
        let file = cli.libraryFolder.appendingPathComponent("library.json")
        let before = try Data(contentsOf: file)
        let refused = try cli.run("add", "--title", " LOW ", "--artist", "david bowie", "--year", "1977")
        #expect(refused.status == 1)
        #expect(refused.error == "error: 'Low' by David Bowie (1977) is already in the library at position 6; add --yes to add it anyway\n")
        #expect(try Data(contentsOf: file) == before)
        let asked = try TerminalSession(cli, ["add", "--title", "Low", "--artist", "David Bowie", "--year", "1977"], columns: 120, input: "n\n")
        #expect(asked.plain.contains("warning: 'Low' by David Bowie (1977) is already in the library at position 6"), "\(asked.screen)")
        #expect(asked.plain.contains("Add it anyway? [y/N]") && asked.status == 1)
        #expect(try Data(contentsOf: file) == before)
        #expect(try cli.run("add", "--title", "Low", "--artist", "David Bowie", "--year", "1977", "--yes").status == 0)
        #expect(try cli.run("add", "--title", "Low", "--artist", "David Bowie", "--year", "1978").status == 0, "another year is another album")
        #expect(try KnownLibrary.positions(cli, ["title:low"]) == [6, 11, 12])
    }

    @Test func coverWarningsNameTheAlbumByTitle() throws {
        let cli = try KnownLibrary.make()
        defer { cli.remove() }
        let added = try cli.run("add", "--title", "Lodger", "--artist", "David Bowie", "--cover", "file:///nonexistent/lodger.png")
        #expect(added.status == 0, "\(added.error)")
        #expect(added.error.hasPrefix("warning: cover of 'Lodger': "), "\(added.error)")
    }
}
