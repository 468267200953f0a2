import AlbumKit
@testable import AlbumKitBundle
import Testing

/// `EntryPath`, the checked name every archive entry gets: one string, cut at `/` bytes.
@Suite struct EntryPathTests {
    private func path(_ text: String) throws -> EntryPath { try EntryPath(text, subject: "test") }

    @Test func belowAFolderIsTheRestAfterItsSlash() throws {
        #expect(try path("mybundle/covers/a.png").below("mybundle")?.description == "covers/a.png")
        #expect(try path("mybundle/albums.json").below("mybundle")?.description == "albums.json")
        #expect(try path("mybundle").below("mybundle") == nil, "the folder itself is not below it")
        #expect(try path("mybundle2/albums.json").below("mybundle") == nil, "a name the folder's name starts is another folder")
        #expect(try path("other/mybundle/albums.json").below("mybundle") == nil)
        // Bytes, as the file system compares: a decomposed é is another folder than a composed one.
        #expect(try path("cafe\u{301}/albums.json").below("caf\u{E9}") == nil)
        #expect(try path("caf\u{E9}/albums.json").below("caf\u{E9}")?.description == "albums.json")
    }

    @Test func theOtherCutsAgreeWithTheComponents() throws {
        for text in ["a", "a/b", "a/b/c.txt", "f/\u{301}g.txt", "./x//y/./z"] {
            let entry = try path(text)
            let components = entry.components
            #expect(entry.description == components.joined(separator: "/"))
            #expect(entry.lastComponent == components.last)
            #expect(entry.droppingFirst.components == Array(components.dropFirst()), "\(text)")
            #expect(entry.droppingFirst.prepending(components[0]) == entry, "\(text)")
            #expect(entry.below(components[0]) == (components.count > 1 ? entry.droppingFirst : nil), "\(text)")
        }
        #expect(try path("./.").isEmpty && path("./.").components.isEmpty)
    }
}
