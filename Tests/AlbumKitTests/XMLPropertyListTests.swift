@testable import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

/// A property-list library written a piece at a time is the document `PropertyListEncoder`
/// writes whole, byte for byte, and reads back as the library it was.
@Suite struct XMLPropertyListTests {
    @Test(arguments: [0, 1, 300])
    func theStreamedListIsTheEncodersDocument(albumCount: Int) throws {
        let folder = try TemporaryFolder("xml-plist")
        defer { folder.remove() }
        let albums = Array((CompatFixtures.unusualAlbums() + CompatFixtures.albums(count: 300)).prefix(albumCount))
        let state = LibraryState(
            current: albums.first?.id, undo: [HistoryRef(id: 3, label: "import <\"x\"> & 'y'")], redo: [], nextStep: 5,
            covers: ["https://x.test/a&b.png": .stored(CoverKey(bytes: Data("a".utf8), fileExtension: "png")), "file:///n": .failed("bad <x>")])
        let whole = LibrarySnapshot(albums: albums, state: state)
        let encoded = try PropertyListFormat(binary: false).encode(LibraryDocument(whole))
        #expect(try written(LibraryDocument(whole), in: folder) == encoded)
        let half = albums.count / 2
        let run = AlbumRun(try SpilledRun(albums[half...], in: folder.url))
        let appended = LibraryDocument(LibrarySnapshot(albums: Array(albums[..<half]), state: state), appending: run)
        let streamed = try written(appended, in: folder)
        #expect(streamed == encoded, "the first half held, the rest appended from a scratch file")
        #expect(try PropertyListFormat().decode(LoadedLibraryDocument.self, from: streamed).snapshot == whole)
    }

    private func written(_ document: LibraryDocument, in folder: TemporaryFolder) throws -> Data {
        let file = folder.path("library.plist")
        try AtomicFile.write(to: file) { descriptor in
            var output = XMLPropertyListOutput(descriptor: descriptor, path: file.path)
            try document.writeXMLPropertyList(to: &output)
        }
        return try Data(contentsOf: file)
    }
}
