@testable import AlbumKit
import AlbumKitBundle
import Foundation
import Testing

/// The import trusts a cover's name only from a source of this package that checked the bytes
/// against it (the bundle source); a cover any other source yields is hashed on arrival.
@Suite struct CarriedCoverCheckTests {
    /// A source as a Swift plugin writes one: an album whose cover is named for other bytes
    /// than those it yields.
    struct MisnamingSource: AlbumSource {
        var name: String { "misnaming" }
        func match(_ input: SourceInput) -> SourceMatch { input.name.hasSuffix(".misnamed") ? .specific : .none }
        func items(from input: SourceInput, context: SourceContext) -> AsyncThrowingStream<SourceItem, any Error> {
            let path = CoverKey(bytes: Data("the named bytes".utf8), fileExtension: "png").bundlePath
            return AsyncThrowingStream { stream in
                stream.yield(.album(AlbumRecord(id: "misnamed:1", title: "Named", artist: "Someone", coverUrl: path), label: "misnamed #1"))
                stream.yield(.cover(path: path, bytes: Data("other bytes".utf8)))
                stream.finish()
            }
        }
    }

    @Test func aCoverFromAnotherSourceIsHashedAndRefusedWhenItsNameLies() async throws {
        let sources: [any AlbumSource] = [MisnamingSource(), BundleSource()]
        #expect(sources.map(\.checksCoverNames) == [false, true])
        let workspace = try Workspace()
        defer { workspace.remove() }
        let fixture = try await LibraryFixture.make(in: workspace)
        var registry = fixture.registry
        registry.register(MisnamingSource())
        let input = workspace.path("albums.misnamed")
        try Data("anything".utf8).write(to: input)
        let before = Workspace.contents(of: fixture.folder)
        let pipeline = ImportPipeline(registry: registry, configuration: fixture.library.configuration)
        let error = await #expect(throws: AlbumKitError.self) { try await fixture.library.importAlbums(from: [input], through: pipeline) }
        let named = CoverKey(bytes: Data("the named bytes".utf8), fileExtension: "png")
        let actual = SHA256Digest.hex(of: Data("other bytes".utf8))
        #expect(error?.description.contains("\(input.path) entry \(named.bundlePath)") == true, "\(String(describing: error))")
        #expect(error?.description.contains("the cover's bytes hash to \(actual), not to its name") == true, "\(String(describing: error))")
        #expect(Workspace.contents(of: fixture.folder) == before, "the library changed")
    }
}
