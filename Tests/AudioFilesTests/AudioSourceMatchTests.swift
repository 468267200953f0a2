import AlbumKit
import AlbumKitInstalled
import AlbumKitTesting
import AudioFiles
import Foundation
import Testing

/// `match`: the audio source claims folders and archives whose first entries are audio,
/// never a bundle, and wins over the bundle source's generic claim.
@Suite struct AudioSourceMatchTests {
    static let track = PlanEntry.track("A/01.mp3", "mp3", .init(album: "T", albumartist: "A"))

    @Test(arguments: AudioCorpus.Container.allCases)
    func audioIsClaimedAndChosen(_ container: AudioCorpus.Container) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let input = try AudioCorpus.pack(try AudioCorpus.write([Self.track], in: folder.url).url, as: container)
        let described = try SourceInput(at: input)
        #expect(AudioFilesSource().match(described) == .specific)
        #expect(AdapterRegistry.installed.source(for: described)?.name == "audio")
    }

    /// A bundle's files come first in archives (`albumkit export` writes the manifest first;
    /// `zip` and Python's `os.walk` put a folder's files before its subfolders), so the look
    /// inside stops at them; in a folder, they are looked for whatever the order.
    @Test(arguments: [AudioCorpus.Container.folder, .tarGz, .zip])
    func aBundleWithAudioInsideIsNotClaimed(_ container: AudioCorpus.Container) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let plan = [PlanEntry(path: "albums.json", bytes: #"[{"title": "T", "artist": "A"}]"#), Self.track]
        let written = try AudioCorpus.write(plan, in: folder.url).url
        var input = try AudioCorpus.pack(written, as: container)
        if container == .tarGz {
            input = folder.path("ordered.tar.gz")
            #expect(try runProgram("/usr/bin/env", ["tar", "-czf", input.path, "albums.json", "A"], in: written).status == 0)
        }
        #expect(AudioFilesSource().match(try SourceInput(at: input)) == .none)
    }

    @Test func otherInputsAreNotClaimed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let list = folder.path("albums.json")
        try Data(#"[{"title": "T", "artist": "A"}]"#.utf8).write(to: list)
        let text = try AudioCorpus.write([PlanEntry(path: "notes/readme.txt", bytes: "text")], in: folder.url, name: "text")
        #expect(AudioFilesSource().match(try SourceInput(at: list)) == .none)
        #expect(AudioFilesSource().match(try SourceInput(at: text.url)) == .none)
        #expect(AudioFilesSource().match(try SourceInput(at: try AudioCorpus.pack(text.url, as: .tarGz))) == .none)
    }
}
