import AlbumKit
@testable import AlbumKitCLI
import Testing

/// The progress display subscribes to the events it shows by name (``ProgressDisplay/shown``)
/// and decides in its switch what to do with each: a name missing from the list silences that
/// progress, and one the switch passes over makes the hub deliver what nobody shows.
@Suite struct ProgressDisplayTests {
    /// One event of each of ``LibraryEvent``'s cases.
    static let everyEvent: [LibraryEvent] = {
        let album = try! Album(id: "id-1", title: "Low", artist: "David Bowie")
        let key = CoverKey(sha256: String(repeating: "ab", count: 32), fileExtension: "png")
        return [
            .albumAdded(album, position: 1), .albumRemoved(album, position: 1), .albumUpdated(before: album, after: album),
            .albumMoved(album.id, from: 1, to: 2), .saved(location: "l", albumCount: 1),
            .stateRestored(current: nil, undoSteps: 0, redoSteps: 0), .importStarted(inputs: ["in"]),
            .importProgress(input: "in", albums: 1, bytesRead: 1, totalBytes: 2), .albumImported(album, outcome: .added),
            .importFinished(ImportSummary()), .importFailed(input: "in", reason: "r"), .exportStarted(path: "p", albums: 1),
            .exportProgress(path: "p", albums: 1, totalAlbums: 2, covers: 0, bytesWritten: 1),
            .exportFinished(path: "p", albums: 1, bytesWritten: 1), .coverRequested(album.id, reference: "r"),
            .coverFetched(album.id, reference: "r", key: key, bytes: 1), .coverCached(album.id, reference: "r", key: key),
            .coverFailed(album.id, reference: "r", reason: "r"), .storageSwitched(from: "a", to: "b"),
            .changedElsewhere(location: "l", albumCount: 1), .stageFinished(StageReport(stage: "s")), .restoreStarted(input: "in"),
            .restoreProgress(input: "in", albums: 1, bytesRead: 1, totalBytes: 2), .restoreFinished(input: "in", albums: 1, backup: nil),
            .restoreFailed(input: "in", reason: "r"), .migrateStarted(from: "a", to: "b", albums: 1),
            .migrateProgress(to: "b", coversCopied: 0, totalCovers: 1, bytesCopied: 0), .migrateFinished(from: "a", to: "b", albums: 1, covers: 0),
            .migrateFailed(from: "a", to: "b", reason: "r"), .pluginFailed(plugin: "p", reason: "r"), .enrichStarted(albums: 1),
            .albumEnriched(album.id, fields: []), .enrichFinished(albums: 1, enriched: 0),
        ]
    }()

    /// Every event the switch acts on is named in ``ProgressDisplay/shown``, and every name
    /// there is an event the switch acts on.
    @Test func theNamesSubscribedToAreTheEventsTheSwitchShows() {
        #expect(Set(Self.everyEvent.map(\.name)).count == Self.everyEvent.count, "one event of each case")
        let display = ProgressDisplay()
        let acted = Self.everyEvent.filter { display.handle($0) }.map(\.name)
        #expect(Set(acted) == ProgressDisplay.shown)
    }
}
