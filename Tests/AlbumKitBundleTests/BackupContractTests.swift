@testable import AlbumKit
import AlbumKitBundle
import AlbumKitTesting
import Foundation
import Testing

/// SPEC 3's backup contract: restore a bundle into an empty library of any backend, export it
/// again, and the albums, their order and ids, the covers and `state.json` are what they were.
/// Every backend: json, plist, bundle, sqlite, and postgres when a test server is configured.
@Suite struct BackupContractTests {
    static let backends = ["json", "plist", "bundle", "sqlite"] + (PostgresTestServer.enabled ? ["postgres"] : [])

    @Test(arguments: backends) func backupRoundTripsThroughEveryOtherBackend(_ origin: String) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let source = try await makeLibrary(origin, in: workspace.path("origin"))
        try await fill(source)
        let first = workspace.path("first.tar.gz")
        try await export(source, to: first)
        let expected = try unpack(first, in: workspace.path("first"))
        #expect(expected.count == 42, "the bundle should hold albums.json, state.json and 40 covers")
        for target in Self.backends where target != origin {
            let library = try await makeLibrary(target, in: workspace.path("to-\(target)"))
            try await library.restore(from: first)
            let again = workspace.path("again-\(target).tar.gz")
            try await export(library, to: again)
            let actual = try unpack(again, in: workspace.path("again-\(target)"))
            #expect(actual.keys.sorted() == expected.keys.sorted(), "\(origin) → \(target): different entries")
            for (name, bytes) in expected where actual[name] != bytes {
                Issue.record("\(origin) → \(target): \(name) differs")
            }
        }
    }

    private func makeLibrary(_ backend: String, in folder: URL) async throws -> Library {
        var configuration = Configuration(environment: [:])
        configuration.library = folder.path
        configuration.storage.backend = backend
        if backend == "postgres" { configuration.storage.url = try PostgresTestServer.freshDatabase() }
        return try await Library.create(configuration, registry: testRegistry(), hub: NotificationHub())
    }

    /// 500 albums with unicode, 40 covers, a selection and some history.
    private func fill(_ library: Library) async throws {
        var keys: [CoverKey] = []
        for index in 0..<40 {
            keys.append(try await library.storage.covers.put(Data("cover \(index) ✓".utf8) + Data(count: index * 100), fileExtension: index % 2 == 0 ? "png" : "jpg"))
        }
        let albums = (0..<500).map { index in
            try! Album(
                id: AlbumID("album-\(index)-ü"), title: ["Björk – Homogenic", "東京事変", "Песни", "\u{1F3B8} Emoji"][index % 4] + " \(index)",
                artist: "Artïst \(index % 17)", genre: index % 3 == 0 ? "" : "Genre ✓", year: index % 5 == 0 ? "" : String(1950 + index % 70),
                coverUrl: index % 4 == 0 ? keys[index % keys.count].bundlePath : (index % 4 == 1 ? "https://example.com/\(index).jpg" : nil))
        }
        try await library.replaceAll(with: LibrarySnapshot(albums: albums))
        try await library.remove([.position(3), .position(10)])
        try await library.move(.position(1), to: 20)
        try await library.update(.position(2), AlbumPatch(title: "Renamed ✓"))
        try await library.add(AlbumRecord(id: "added-later", title: "Later", artist: "Someone"), at: 5)
        try await library.undo()
        try await library.select(.position(7))
    }

    private func export(_ library: Library, to url: URL) async throws {
        try await library.export(to: url)
    }

    /// The bundle's files other than the manifest and checksums (which carry the time).
    private func unpack(_ bundle: URL, in folder: URL) throws -> [String: Data] {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let result = try runProgram("/bin/tar", ["-xzf", bundle.path, "-C", folder.path])
        guard result.status == 0 else { throw FixtureError(result.output) }
        return Workspace.contents(of: folder).filter { $0.key != "manifest.json" && $0.key != "checksums.sha256" && $0.key != "covers/" }
    }
}
