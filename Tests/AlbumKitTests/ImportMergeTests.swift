@testable import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

/// The import's commit as the library calls it: the merge of the albums that passed the stages.
@Suite struct ImportMergeTests {
    /// The commit takes its albums one at a time and reports each album's outcome in input
    /// order; the new albums go to a run appended at the end, and an album the same import
    /// replaces is added once, in its place, with the later fields.
    @Test func theCommitReportsEachOutcomeInOrderAndAppendsOneRun() async throws {
        let folder = try TemporaryFolder("merge")
        defer { folder.remove() }
        let backend = FileBackendKind.json.make(in: folder.path("lib"))
        try await backend.create()
        let library = try await Library.open(backend, hub: NotificationHub())
        try await library.add(AlbumRecord(id: "kept", title: "Kid A", artist: "Radiohead"))
        var items = [
            ImportItem(record: AlbumRecord(id: "low", title: "Low", artist: "David Bowie", year: "1977"), label: "#1", input: "in.json"),
            ImportItem(record: AlbumRecord(title: "Blue", artist: "Joni Mitchell", year: "1971"), label: "#2", input: "in.json"),
            ImportItem(record: AlbumRecord(id: "low", title: "Low (2017 remaster)", artist: "David Bowie", year: "1977"), label: "#3", input: "in.json"),
            ImportItem(record: AlbumRecord(id: "kept", title: "Kid A (remaster)", artist: "Radiohead"), label: "#4", input: "in.json"),
        ]
        items[2].disposition = .replace("low")
        items[3].disposition = .replace("kept")
        var pulled = 0
        var next = items.makeIterator()
        let commit = try await library.mergeImport(expecting: items.count) {
            defer { pulled += 1 }
            return next.next()
        }
        #expect(pulled == 5, "each album is asked for once, and then the end")
        var merged: [(String, ImportOutcome)] = []
        try commit.forEach { merged.append(($0.title, $1)) }
        #expect(merged.map(\.1) == [.added, .added, .replaced, .replaced])
        #expect(merged.map(\.0) == ["Low", "Blue", "Low (2017 remaster)", "Kid A (remaster)"])
        #expect(commit.run.count == 2 && commit.run.first == "low")
        #expect(try commit.run.all().map(\.title) == ["Low (2017 remaster)", "Blue"], "the run holds the replacement in place")
        #expect(try await library.albums().map(\.title) == ["Kid A (remaster)", "Low (2017 remaster)", "Blue"])
        let reopened = try await Library.open(backend, hub: NotificationHub())
        try await reopened.undo()
        #expect(try await reopened.albums().map(\.title) == ["Kid A"], "one step of history")
    }
}
