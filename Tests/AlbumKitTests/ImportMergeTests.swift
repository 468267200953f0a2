@testable import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

/// The import's commit as the pipeline calls it: the merge of the albums that passed the stages.
@Suite struct ImportMergeTests {
    /// The commit empties the items it was handed (before the save: a large import does not
    /// hold them through it) and returns each album's outcome in input order; an album the same
    /// import replaces is added once, with the later fields.
    @Test func theCommitEmptiesItsItemsAndReportsEachOutcomeInOrder() async throws {
        let folder = try TemporaryFolder("merge")
        defer { folder.remove() }
        let backend = FileBackendKind.json.make(in: folder.path("lib"))
        try await backend.create()
        let library = try await Library.open(backend, hub: NotificationHub())
        var items = [
            ImportItem(record: AlbumRecord(id: "low", title: "Low", artist: "David Bowie", year: "1977"), label: "#1", input: "in.json"),
            ImportItem(record: AlbumRecord(title: "Blue", artist: "Joni Mitchell", year: "1971"), label: "#2", input: "in.json"),
            ImportItem(record: AlbumRecord(id: "low", title: "Low (2017 remaster)", artist: "David Bowie", year: "1977"), label: "#3", input: "in.json"),
        ]
        items[2].disposition = .replace("low")
        let merged = try await library.commitImport(&items)
        #expect(items.isEmpty, "the merged items are let go")
        #expect(merged.map(\.outcome) == [.added, .added, .replaced])
        #expect(merged.map(\.album.title) == ["Low", "Blue", "Low (2017 remaster)"])
        #expect(try await library.albums().map(\.title) == ["Low (2017 remaster)", "Blue"])
        try await library.undo()
        #expect(try await library.albums().isEmpty, "one step of history")
    }
}
