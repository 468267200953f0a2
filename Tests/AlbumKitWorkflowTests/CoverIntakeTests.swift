import AlbumKit
import Foundation
import Testing

/// An import writes the covers it carries straight into the library's cover store (a file
/// library's `covers/` folder, a database's table a batch at a time); whatever it does not
/// commit must be gone again, and a file a crash left under a cover's name must not be trusted.
@Suite struct CoverIntakeTests {
    /// An unpacked bundle (a folder, as `tar xf` leaves one) of `albums`, each with its own
    /// cover; returns the folder and the covers' keys in album order.
    static func bundle(_ workspace: Workspace, _ albums: [[String: String]]) throws -> (URL, [CoverKey]) {
        let folder = workspace.path("bundle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("covers"), withIntermediateDirectories: true)
        var listed: [[String: String]] = []
        var keys: [CoverKey] = []
        for (index, album) in albums.enumerated() {
            let bytes = Data("\u{89}PNG\r\n\u{1A}\n cover \(index) of \(album["title"] ?? "")".utf8)
            let key = CoverKey(bytes: bytes, fileExtension: "png")
            try bytes.write(to: folder.appendingPathComponent(key.bundlePath))
            var album = album
            album["coverUrl"] = key.bundlePath
            listed.append(album)
            keys.append(key)
        }
        try JSONSerialization.data(withJSONObject: listed).write(to: folder.appendingPathComponent("albums.json"))
        return (folder, keys)
    }

    static let albums: [[String: String]] = [
        ["id": "c1", "title": "Low", "artist": "David Bowie", "year": "1977"],
        ["id": "c2", "title": "Pet Sounds", "artist": "The Beach Boys", "year": "1966"],
        ["id": "c3", "title": "Blue", "artist": "Joni Mitchell", "year": "1971"],
    ]

    /// The backends whose cover stores take covers in different ways: a folder of files, a
    /// database table, and a bundle's pending covers.
    static let backends = ["json", "sqlite", "bundle"]

    func library(_ workspace: Workspace, backend: String = "json", stages: [String]? = nil) async throws -> Library {
        try await Library.create(
            workspace.configuration(backend: backend, stages: stages), registry: StageTests.registry, hub: workspace.hub, seed: .empty)
    }

    @Test func importedCoversLandInTheCoversFolderAndNothingElseIsLeft() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let library = try await library(workspace)
        let (input, keys) = try Self.bundle(workspace, Self.albums)
        _ = try await library.importAlbums(from: [input])
        let folder = URL(fileURLWithPath: library.configuration.library)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("covers").path).sorted()
        #expect(names == keys.map(\.fileName).sorted())
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { !$0.hasPrefix(".albumkit-staging") })
        for key in keys { #expect(try await library.coverBytes(key) == Data(contentsOf: input.appendingPathComponent(key.bundlePath))) }
    }

    @Test(arguments: [["validate", "explodes", "dedupe", "covers"], ["validate", "dedupe", "covers"]], backends)
    func aFailedImportTakesItsCoversBackOut(_ stages: [String], _ backend: String) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let library = try await library(workspace, backend: backend, stages: stages)
        _ = try await library.importAlbums(from: [try Self.bundle(workspace, [Self.albums[0]]).0])
        let folder = URL(fileURLWithPath: library.configuration.library)
        let before = Workspace.hashes(of: folder)
        let storedBefore = try await library.storedCoverKeys()
        // 300 new albums (more than one batch of covers): the third is the one `explodes`
        // fails on; without it, a bad year on the last fails `validate`.
        var albums = [["id": "d1", "title": "Hunky Dory", "artist": "David Bowie"], Self.albums[1], Self.albums[2]]
        albums += (4...300).map { ["id": "e\($0)", "title": "Album \($0)", "artist": "Artist \($0)"] }
        if !stages.contains("explodes") { albums[299]["year"] = "nineteen" }
        await #expect(throws: AlbumKitError.self) { _ = try await library.importAlbums(from: [try Self.bundle(workspace, albums).0]) }
        #expect(try await library.storedCoverKeys() == storedBefore, "the cover store must hold what it held before")
        if backend == "json" {
            #expect(Workspace.hashes(of: folder) == before, "the library folder, covers included, must be as it was")
        } else {
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).allSatisfy { !$0.hasPrefix(".albumkit-staging") })
        }
    }

    @Test(arguments: backends)
    func coversOfDroppedAlbumsAreNotKept(_ backend: String) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let library = try await library(workspace, backend: backend, stages: ["validate", "before-1970", "dedupe", "covers"])
        // 297 albums after them, so that Pet Sounds' cover is stored in an early batch.
        let more = (4...300).map { ["id": "e\($0)", "title": "Album \($0)", "artist": "Artist \($0)"] }
        let (input, keys) = try Self.bundle(workspace, Self.albums + more)
        let (report, _) = try await library.importAlbums(from: [input])
        #expect(report.summary.added == 299 && report.summary.dropped == 1)
        #expect(try await library.storedCoverKeys().sorted() == keys.enumerated().filter { $0.offset != 1 }.map(\.element).sorted(),
                "Pet Sounds (1966) was dropped, and its cover with it")
    }

    @Test func aCoverFileACrashLeftHalfWrittenIsReplaced() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let library = try await library(workspace)
        let (input, keys) = try Self.bundle(workspace, Self.albums)
        let covers = URL(fileURLWithPath: library.configuration.library).appendingPathComponent("covers")
        try FileManager.default.createDirectory(at: covers, withIntermediateDirectories: true)
        let whole = try Data(contentsOf: input.appendingPathComponent(keys[1].bundlePath))
        try whole.prefix(5).write(to: covers.appendingPathComponent(keys[1].fileName))
        try Data().write(to: covers.appendingPathComponent(keys[2].fileName))
        _ = try await library.importAlbums(from: [input])
        #expect(try await library.coverBytes(keys[1]) == whole)
        #expect(try await library.coverBytes(keys[2]) == Data(contentsOf: input.appendingPathComponent(keys[2].bundlePath)))
    }

    @Test func aCoverAlreadyStoredIsLeftAsItIs() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let library = try await library(workspace)
        let (input, keys) = try Self.bundle(workspace, Self.albums)
        _ = try await library.importAlbums(from: [input])
        let file = URL(fileURLWithPath: library.configuration.library).appendingPathComponent("covers/\(keys[0].fileName)")
        let inode = try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int
        _ = try await library.importAlbums(from: [input], options: ImportOptions(onDuplicate: .keep))
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.systemFileNumber] as? Int == inode)
        #expect(try await library.count() == 6)
    }
}
