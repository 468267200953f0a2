import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

/// The folder store's keys are the covers its file names name, read entry by entry: nothing
/// else in the folder (leftovers, other files, folders, `.` and `..`) becomes a key.
@Suite struct DirectoryCoverStoreTests {
    @Test func theKeysAreTheCoverFilesAndNothingElse() async throws {
        let folder = try TemporaryFolder("cover-folder")
        defer { folder.remove() }
        let store = DirectoryCoverStore(folder: folder.url)
        #expect(try await store.keys().isEmpty, "a folder not made yet holds no covers")
        let png = try await store.put(Data("a cover".utf8), fileExtension: "png")
        let jpg = try await store.put(Data("another cover ✓".utf8), fileExtension: "JPG")
        let digest = String(repeating: "ab", count: 32)
        for stray in [".\(png.fileName).tmp-12-34", "notes.txt", "\(digest)", "\(digest).", "\(digest)x.png", "\(digest).p g"] {
            try Data("not a cover".utf8).write(to: folder.path(stray))
        }
        try FileManager.default.createDirectory(at: folder.path("sub"), withIntermediateDirectories: false)
        #expect(try await store.keys() == [png, jpg].sorted())
        #expect(try await store.keySet() == [png, jpg])
        #expect(jpg.fileName.hasSuffix(".jpg"), "an extension is kept in lower case")
    }
}
