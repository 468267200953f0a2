import AlbumKit
import AlbumKitTesting
import Foundation
import ITunesSource
import Testing

/// The iTunes source on libraries `plistlib` writes: grouping, SPEC 9's field rules, covers
/// beside the tracks under `covers.fileRoots`, and broken or hostile files.
@Suite struct ITunesSourceTests {
    private struct Read {
        var albums: [AlbumRecord] = []
        var covers: [String: Data] = [:]
        var warnings: [String] = []
        /// Records that cannot be albums: `label: reason`.
        var invalid: [String] = []
    }

    private func read(_ file: URL, roots: [String] = []) async throws -> Read {
        var read = Read()
        let source = ITunesSource()
        for try await item in source.items(from: try SourceInput(at: file), context: SourceContext(fileRoots: FileRoots(roots))) {
            switch item {
            case .album(let record, _): read.albums.append(record)
            case .cover(let path, let bytes): read.covers[path] = bytes
            case .warning(let message): read.warnings.append(message)
            case .invalid(_, let label, let reason): read.invalid.append("\(label): \(reason)")
            default: break
            }
        }
        return read
    }

    private func failure(_ file: URL) async throws -> String {
        do {
            _ = try await read(file)
        } catch let error as AlbumKitError {
            return error.description
        }
        Issue.record("no error reading \(file.lastPathComponent)")
        return ""
    }

    @Test(arguments: [true, false])
    func tracksBecomeAlbumsByTheRulesOfSPEC9(sortedKeys: Bool) async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("Library.xml")
        try LibraryXMLFixture.write([
            ["Album": "OK Computer", "Artist": "Radiohead", "Genre": "Alternative", "Year": 1997],
            ["Album": "Now That's What I Call Music", "Artist": "Blur", "Compilation": true, "Genre": "Pop", "Year": 1998],
            ["Album": "OK Computer", "Artist": "Radiohead", "Genre": "Rock", "Year": 1997],
            ["Album": "Now That's What I Call Music", "Artist": "Oasis", "Compilation": true, "Genre": "Britpop", "Year": 1998],
            ["Album": "OK Computer", "Artist": "Radiohead", "Genre": "Rock", "Year": 1998],
            ["Album": "Now That's What I Call Music", "Artist": "Pulp", "Compilation": true, "Genre": "Britpop", "Year": 1998],
            ["Album": "Duets & Friends", "Artist": "Guest", "Album Artist": "Tony Bennett", "Genre": "Jazz"],
            ["Name": "A voice memo", "Artist": "Me"],
            ["Album": "   ", "Artist": "Nobody"],
            ["Album": "Loose Track"],
        ], to: file, sorted: sortedKeys)
        #expect(ITunesSource().match(try SourceInput(at: file)) == .specific)
        let read = try await read(file)
        #expect(read.albums.map(\.title) == ["OK Computer", "Now That's What I Call Music", "Duets & Friends"])
        #expect(read.albums.map(\.artist) == ["Radiohead", "Various Artists", "Tony Bennett"])
        #expect(read.albums.map(\.genre) == ["Rock", "Britpop", "Jazz"], "the most common genre of each album's tracks")
        #expect(read.albums.map(\.year) == ["1997", "1998", ""])
        #expect(read.albums.map { $0.id?.rawValue } == ["itunes:A1B2C3D4E5F60000", "itunes:A1B2C3D4E5F60001", "itunes:A1B2C3D4E5F60006"])
        #expect(read.invalid.count == 3, "each track that cannot be part of an album is named: \(read.invalid)")
        #expect(read.invalid.first?.hasSuffix("track 1015 'A voice memo': the track has no album name") == true, "\(read.invalid)")
        #expect(read.invalid.last?.hasSuffix("track 1019 'Track 9': the track has no artist") == true, "\(read.invalid)")
    }

    @Test func artBesideTheTracksIsReadOnlyUnderFileRoots() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let music = folder.path("Music Library/Ünïcode & Co")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        try LibraryXMLFixture.jpeg.write(to: music.appendingPathComponent("folder.jpg"))
        let file = folder.path("Library.xml")
        try LibraryXMLFixture.write([
            ["Album": "With Art", "Artist": "A", "path": music.appendingPathComponent("01 Song #1.mp3").path],
            ["Album": "Without Art", "Artist": "B", "path": folder.path("elsewhere/02.mp3").path],
        ], to: file)

        let refused = try await read(file)
        #expect(refused.covers.isEmpty && refused.albums.allSatisfy { $0.coverUrl == nil })
        #expect(refused.warnings.contains { $0.contains("not under covers.fileRoots") })

        let permitted = try await read(file, roots: [folder.path("Music Library").path])
        let key = CoverKey(bytes: LibraryXMLFixture.jpeg, fileExtension: "jpg")
        #expect(permitted.covers == [key.bundlePath: LibraryXMLFixture.jpeg])
        #expect(permitted.albums.map(\.coverUrl) == [key.bundlePath, nil])
    }

    @Test func aLinkedCoverPointingOutsideTheRootsIsNotRead() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let music = folder.path("music/album")
        try FileManager.default.createDirectory(at: music, withIntermediateDirectories: true)
        try LibraryXMLFixture.jpeg.write(to: folder.path("private.jpg"))
        try FileManager.default.createSymbolicLink(at: music.appendingPathComponent("cover.jpg"), withDestinationURL: folder.path("private.jpg"))
        let file = folder.path("Library.xml")
        try LibraryXMLFixture.write([["Album": "Linked", "Artist": "A", "path": music.appendingPathComponent("1.mp3").path]], to: file)
        let read = try await read(file, roots: [folder.path("music").path])
        #expect(read.covers.isEmpty && read.albums.first?.coverUrl == nil)
        #expect(read.warnings.contains { $0.contains("not under any of covers.fileRoots") }, "\(read.warnings)")
    }

    @Test func aWrongTypeIsAnErrorNamingTheTrackAndLine() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("Library.xml")
        try LibraryXMLFixture.write([["Album": "Fine", "Artist": "A", "Year": 2000], ["Album": "Bad", "Artist": "B", "Year": "nineteen"]], to: file)
        let message = try await failure(file)
        let text = try String(contentsOf: file, encoding: .utf8)
        let line = text.components(separatedBy: "\n").firstIndex { $0.contains("nineteen") }.map { $0 + 1 } ?? 0
        #expect(message.contains("track 1003") && message.contains("'Year' must be an <integer>") && message.contains("line \(line)"), "\(message)")
    }

    @Test func aTruncatedLibraryIsAnErrorNotAPartialImport() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("Library.xml")
        try LibraryXMLFixture.write((0..<50).map { ["Album": "Album \($0 % 5)", "Artist": "A"] }, to: file)
        let data = try Data(contentsOf: file)
        try data.prefix(data.count * 2 / 3).write(to: file)
        let message = try await failure(file)
        #expect(message.contains("the file ends inside"), "\(message)")
    }

    @Test func aPlistWithoutTracksIsNotALibrary() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("other.xml")
        let script = "import plistlib,sys; plistlib.dump({'Library Persistent ID': 'X', 'Playlists': []}, open(sys.argv[1],'wb'))"
        #expect(try runProgram("/usr/bin/env", ["python3", "-c", script, file.path]).status == 0)
        let message = try await failure(file)
        #expect(message.contains("no 'Tracks'"), "\(message)")
    }

    @Test func albumKitsOwnPlistListsAreNotClaimed() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let file = folder.path("albums.xml")
        let script = "import plistlib,sys; plistlib.dump([{'title': 'T', 'artist': 'A'}], open(sys.argv[1],'wb'))"
        #expect(try runProgram("/usr/bin/env", ["python3", "-c", script, file.path]).status == 0)
        #expect(ITunesSource().match(try SourceInput(at: file)) == .none)
    }
}
