@testable import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

/// A library folder's marker (`albumkit-library.yaml`) names its backend and settings as text.
@Suite struct LibraryFolderMarkerTests {
    /// Edited by hand, with values YAML's default rules would read as a number, a boolean or a
    /// date: each setting is the text as written.
    @Test func settingsAreReadAsTheTextWritten() throws {
        let folder = try TemporaryFolder("marker")
        defer { folder.remove() }
        let marker = "backend: sqlite\npath: 0x1F\nreadOnly: off\nratio: 1.50\nsince: 2001-12-14\nname: 'quoted'\n"
        try Data(marker.utf8).write(to: folder.path(LibraryFolderMarker.fileName))
        let read = try #require(LibraryFolderMarker.read(in: folder.url))
        #expect(read.backend == "sqlite")
        #expect(read.settings == ["path": "0x1F", "readOnly": "off", "ratio": "1.50", "since": "2001-12-14", "name": "quoted"])
    }
}
