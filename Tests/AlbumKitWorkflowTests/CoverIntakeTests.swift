import AlbumKit
import Foundation
import Testing

/// An import writes the covers it carries straight into a file library's `covers/` folder;
/// whatever it does not commit must be gone again, and a file a crash left under a cover's
/// name must not be trusted.
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

    func library(_ workspace: Workspace, stages: [String]? = nil) async throws -> Library {
        try await Library.create(workspace.configuration(stages: stages), registry: StageTests.registry, hub: workspace.hub, seed: .empty)
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

    @Test(arguments: [["validate", "explodes", "dedupe", "covers"], ["validate", "dedupe", "covers"]])
    func aFailedImportTakesItsCoversBackOut(_ stages: [String]) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let library = try await library(workspace, stages: stages)
        _ = try await library.importAlbums(from: [try Self.bundle(workspace, [Self.albums[0]]).0])
        let folder = URL(fileURLWithPath: library.configuration.library)
        let before = Workspace.hashes(of: folder)
        // Three new albums: the third is the one `explodes` fails on; without it, a bad year fails `validate`.
        var albums = [["id": "d1", "title": "Hunky Dory", "artist": "David Bowie"], Self.albums[1], Self.albums[2]]
        if !stages.contains("explodes") { albums[2]["year"] = "nineteen" }
        await #expect(throws: AlbumKitError.self) { _ = try await library.importAlbums(from: [try Self.bundle(workspace, albums).0]) }
        #expect(Workspace.hashes(of: folder) == before, "the library folder, covers included, must be as it was")
    }

    @Test func coversOfDroppedAlbumsAreNotKept() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let library = try await library(workspace, stages: ["validate", "before-1970", "dedupe", "covers"])
        let (input, keys) = try Self.bundle(workspace, Self.albums)
        let (report, _) = try await library.importAlbums(from: [input])
        #expect(report.summary.added == 2 && report.summary.dropped == 1)
        #expect(try await library.storedCoverKeys().sorted() == [keys[0], keys[2]].sorted(), "Pet Sounds (1966) was dropped, and its cover with it")
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
