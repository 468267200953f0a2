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

    /// A folder of more covers than one `readdir` buffer holds (32 KiB, about 350 of these
    /// names): every one is a key (under `make sanitizers`, no name is read past its record).
    @Test func aFolderOfThousandsOfCoversIsReadWhole() async throws {
        let folder = try TemporaryFolder("cover-folder")
        defer { folder.remove() }
        let store = DirectoryCoverStore(folder: folder.url)
        var expected = Set<CoverKey>()
        for index in 0..<3000 { expected.insert(try await store.put(Data("cover \(index)".utf8), fileExtension: index % 3 == 0 ? "jpeg" : "png")) }
        #expect(try await store.keySet() == expected)
        #expect(try await store.keys() == expected.sorted())
    }

    /// A cover whose name is repeated in upper case (copied in by hand) is one key, listed once.
    @Test func aNameRepeatedInAnotherCaseIsOneKey() async throws {
        let folder = try TemporaryFolder("cover-folder")
        defer { folder.remove() }
        let store = DirectoryCoverStore(folder: folder.url)
        var stored: [CoverKey] = []
        for index in 0..<50 { stored.append(try await store.put(Data("cover \(index)".utf8), fileExtension: "png")) }
        for key in stored.prefix(20) {
            try Data(contentsOf: folder.path(key.fileName)).write(to: folder.path(key.fileName.uppercased()))
        }
        #expect(try await store.keys() == stored.sorted())
        #expect(try await store.keySet() == Set(stored))
    }
}
