import AlbumKit
import AlbumKitTesting
import BeetsSource
import Foundation
import Testing

/// The beets source read directly: beets keeps writing while AlbumKit reads, and exports
/// with wrong values are errors naming the object.
@Suite struct BeetsSourceTests {
    @Test func beetsCanWriteWhileAlbumKitIsPartWayThroughReading() async throws {
        let beets = try BeetsFixture()
        defer { beets.folder.remove() }
        let source = BeetsSource()
        let input = try SourceInput(at: beets.database)
        #expect(source.match(input) == .specific)
        var iterator = source.items(from: input, context: SourceContext()).makeAsyncIterator()
        var titles: [String] = []
        while titles.isEmpty, let item = try await iterator.next() {
            if case .album(let record, _) = item { titles.append(record.title) }
        }
        // AlbumKit has read one album and waits; a writer must get in now, not time out.
        let modified = try beets.beet("modify", "-y", "-a", "album:Timeless", "genres=Ambient")
        #expect(modified.status == 0 && !modified.output.contains("locked"), "\(modified.output)")
        while let item = try await iterator.next() {
            if case .album(let record, _) = item { titles.append(record.title) }
        }
        #expect(titles == ["OK Computer", "Homogénic & Co", "Timeless"])
        #expect(try beets.listedAlbums().contains { $0[2] == "Timeless" && $0[4] == "Ambient" }, "beets's write stands")
    }

    /// An album whose fields cannot be read is a record that is not an album: yielded as
    /// invalid, named, with the rest read.
    @Test func anAlbumThatCannotBeReadIsYieldedAsInvalidNamingTheObject() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("export.json")
        try Data(#"[{"album": "A", "albumartist": "B", "year": "19x7"}, {"album": "C", "albumartist": "D", "year": 1999}]"#.utf8).write(to: file)
        var titles: [String] = []
        var invalid: [String] = []
        for try await item in BeetsSource().items(from: try SourceInput(at: file), context: SourceContext()) {
            if case .album(let record, _) = item { titles.append(record.title) }
            if case .invalid(_, let label, let reason) = item { invalid.append("\(label): \(reason)") }
        }
        #expect(titles == ["C"])
        #expect(invalid == ["\(file.path) object 1 'A': year '19x7' is not a year"])
    }

    @Test(arguments: [
        (#"[{"album": "A", "albumartist": "B"}, {"album": ["A"], "albumartist": "B"}]"#, "object 2, 'album'"),
        ("{\"album\": \"A\", \"albumartist\": \"B\"}\n{\"album\": \"C\", \"albumartist\": \n", "line 2"),
    ])
    func aBadExportIsAnErrorNamingTheObject(json: String, expected: String) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("export.json")
        try Data(json.utf8).write(to: file)
        let source = BeetsSource()
        #expect(source.match(try SourceInput(at: file)) == .specific)
        do {
            for try await _ in source.items(from: try SourceInput(at: file), context: SourceContext()) {}
            Issue.record("no error")
        } catch let error as AlbumKitError {
            #expect(error.description.contains(file.path) && error.description.contains(expected), "\(error)")
        }
    }

    @Test func albumKitsOwnJSONIsNotClaimed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("albums.json")
        try Data(#"[{"title": "T", "artist": "A", "album": "x"}]"#.utf8).write(to: file)
        #expect(BeetsSource().match(try SourceInput(at: file)) == .none)
    }
}
