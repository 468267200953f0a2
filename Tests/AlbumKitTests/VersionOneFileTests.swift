@testable import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

/// A library file as albumkit 0.1 left it — version 1, the whole undo and redo history inside
/// the memento — opens with its history, is upgraded by its first write (the steps move to the
/// journal), and its history still walks in later processes.
@Suite struct VersionOneFileTests {
    /// What 0.1 wrote: the document with the memento in the form `state.json` still has.
    private struct VersionOneDocument: Encodable {
        let format = LibraryDocument.formatName
        let version = 1
        let albums: [Album]
        let state: StateFile
    }

    @Test(arguments: FileBackendKind.allCases)
    func aVersionOneFileKeepsItsHistoryAndIsUpgraded(_ kind: FileBackendKind) async throws {
        let folder = try TemporaryFolder("version-one")
        defer { folder.remove() }
        let albums = sampleAlbums(4)
        let later = try Album(id: "later", title: "Later", artist: "Somebody")
        // 0.1's history after adding albums 1 to 4, adding "Later", and undoing that: the
        // addition of album 4 to undo, the addition of "Later" to redo.
        let state = StateFile(
            current: albums[1].id,
            undo: [HistoryStep(LibraryChange(label: "add 'Album 4'", edits: [.insert(albums[3], at: 3)]))],
            redo: [HistoryStep(LibraryChange(label: "add 'Later'", edits: [.insert(later, at: 4)]))])
        let document = VersionOneDocument(albums: albums, state: state)
        let file = folder.path(kind.fileName)
        let data: Data = switch kind {
        case .json: try JSONFormat().encode(document)
        case .plistXML: try PropertyListFormat(binary: false).encode(document)
        case .plistBinary: try PropertyListFormat(binary: true).encode(document)
        }
        try data.write(to: file)

        let first = try await Library.open(kind.make(in: folder.url), hub: NotificationHub())
        #expect(await first.historyDepth == (1, 1))
        #expect(await first.memento.current == albums[1].id)
        #expect(try await first.albums() == albums)
        #expect(try Data(contentsOf: file) == data, "opening does not write")

        try await first.undo()
        #expect(try await first.albums() == Array(albums.prefix(3)))
        let upgraded = try await kind.make(in: folder.url).load()
        #expect(upgraded.state.undo.isEmpty && upgraded.state.redo.count == 2, "the undone step joins the carried redo step")
        #expect(try await kind.make(in: folder.url).steps(upgraded.state.stepIDs).count == 2, "both steps are in the journal")
        if kind == .json {
            #expect(try LoadedLibraryDocument(strictJSON: Data(contentsOf: file)).carriedSteps.isEmpty, "the file is version 2 now")
        }

        let reopened = try await Library.open(kind.make(in: folder.url), hub: NotificationHub())
        try await reopened.redo()
        #expect(try await reopened.albums() == albums)
        try await reopened.redo()
        #expect(try await reopened.albums() == albums + [later], "the step carried in the version 1 file redoes")
        #expect(await reopened.historyDepth == (2, 0))
    }
}
