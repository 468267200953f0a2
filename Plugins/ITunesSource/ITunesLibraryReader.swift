import AlbumKit
import Foundation
import SourceSupport

/// Reads a `Library.xml` to its end, adding each track to its album, then hands out the
/// albums (each after its cover, when art lies beside its tracks) and the warnings.
struct ITunesLibraryReader: SourceItemReader {
    private enum Phase { case prologue, topLevel, tracks, emitting }
    private static var tracksPerProgress: Int { 2000 }

    private var xml: XMLReader
    private let context: SourceContext
    private var phase = Phase.prologue
    private var sawTracks = false
    /// The albums in the order their first track came; once read, the other way round, each
    /// dropped as it is handed out (its packed tracks are the most memory the reader holds).
    private var albums: [ITunesAlbum] = []
    private var albumIndex: [AlbumKey: Int] = [:]
    /// The names of the tracks' keys in `fields`, which the packed tracks refer to.
    private var fieldNames = ITunesFieldNames()
    /// Tracks that cannot be part of an album (no album name, no artist), named as they are
    /// skipped.
    private var notAlbums: [SourceItem] = []
    /// Items that are not music, skipped, by what they are (`podcast`).
    private var notMusic = Tally()
    /// Keys of music tracks whose value no field can hold (`<data>`, `<array>`, `<dict>`), by name.
    private var droppedKeys = Tally()
    /// Music tracks with an empty `Name`, titled after their file (a track needs a title: SPEC 1).
    private var untitled = 0
    private var outbox: [SourceItem] = []
    private var foldersNotPermitted = 0

    private struct AlbumKey: Hashable {
        let artist: String
        let title: String
    }

    init(_ url: URL, context: SourceContext) throws(AlbumKitError) {
        xml = try XMLReader(url)
        self.context = context
    }

    mutating func next() throws -> SourceItem? {
        while true {
            switch phase {
            case .prologue:
                try xml.expectStart("plist", in: "the library")
                try xml.expectStart("dict", in: "the library")
                phase = .topLevel
            case .topLevel:
                try readTopLevelEntry()
            case .tracks:
                return try readTracks()
            case .emitting:
                return emit()
            }
        }
    }

    /// One key of the root dictionary: `Tracks` is read, any other value skipped; after the
    /// last, the document must end.
    private mutating func readTopLevelEntry() throws(AlbumKitError) {
        guard let key = try xml.nextKey(in: "the library") else {
            guard try xml.next() == .end("plist"), try xml.next() == nil else { throw xml.error("content after the library's dictionary") }
            guard sawTracks else { throw xml.error("no 'Tracks' dictionary: not an iTunes library") }
            finishReading()
            return
        }
        if key == "Tracks" {
            try xml.expectStart("dict", in: "'Tracks'")
            sawTracks = true
            phase = .tracks
        } else {
            guard case .start = try xml.next() else { throw xml.error("'\(key)' has no value") }
            try xml.skipElement()
        }
    }

    /// Up to ``tracksPerProgress`` tracks, then how far the file has been read.
    private mutating func readTracks() throws(AlbumKitError) -> SourceItem {
        for _ in 0..<Self.tracksPerProgress {
            guard let name = try xml.nextKey(in: "'Tracks'") else {
                phase = .topLevel
                break
            }
            let line = xml.line
            try xml.expectStart("dict", in: "track \(name)")
            let track = try ITunesTrack(reading: &xml, name: name)
            try add(track, name: name, line: line)
        }
        return .progress(bytesRead: xml.bytesRead, totalBytes: xml.totalBytes)
    }

    private mutating func add(_ track: ITunesTrack, name: String, line: Int) throws(AlbumKitError) {
        var track = track
        if let what = track.notMusic {
            notMusic.add(what)
            return
        }
        for key in track.droppedKeys { droppedKeys.add(key) }
        let title = track.album.trimmed
        let artist = track.albumArtistOrFallback.trimmed
        guard !title.isEmpty, !artist.isEmpty else {
            let label: AlbumLabel = "\(xml.path) line \(line) track \(name) '\(track.name.prefix(80))'"
            let reason = title.isEmpty ? "the track has no album name" : "the track has no artist"
            notAlbums.append(.invalid(AlbumRecord(title: title, artist: artist), label: label, reason: reason))
            return
        }
        if track.name.trimmed.isEmpty {
            track.name = Self.untitledName(location: track.location)
            untitled += 1
        }
        let key = AlbumKey(artist: artist, title: title)
        if let index = albumIndex[key] {
            albums[index].add(track, names: &fieldNames)
            return
        }
        guard !track.persistentID.isEmpty else {
            throw AlbumKitError(.unreadableInput, "\(xml.path) line \(line): track \(name) has no 'Persistent ID'")
        }
        albumIndex[key] = albums.count
        albums.append(ITunesAlbum(first: track, title: title, artist: artist, line: line, names: &fieldNames))
    }

    /// The title of a track without a `Name`: its file's name without the extension, as iTunes
    /// shows such a track, else `Untitled`.
    private static func untitledName(location: String) -> String {
        let name = URL(string: location)?.deletingPathExtension().lastPathComponent.trimmed ?? ""
        return name.isEmpty || name == "/" ? "Untitled" : name
    }

    private mutating func finishReading() {
        albumIndex = [:]
        albums.reverse()
        if notMusic.total > 0 {
            let kinds = notMusic.seen.map { "\($0.count) \($0.value)\($0.count == 1 ? "" : "s")" }.joined(separator: ", ")
            outbox.append(.warning("\(xml.path): \(notMusic.total) item\(notMusic.total == 1 ? "" : "s") that \(notMusic.total == 1 ? "is" : "are") not music skipped (\(kinds))"))
        }
        if droppedKeys.total > 0 {
            let keys = droppedKeys.seen.map { "'\($0.value)' (\($0.count))" }.joined(separator: ", ")
            outbox.append(.warning("\(xml.path): track keys whose value is data, an array or a dictionary not kept: \(keys)"))
        }
        if untitled > 0 {
            outbox.append(.warning("\(xml.path): \(untitled) track\(untitled == 1 ? "" : "s") without a Name titled after \(untitled == 1 ? "its file" : "their files") ('Untitled' without one)"))
        }
        outbox += notAlbums
        notAlbums = []
        phase = .emitting
    }

    /// The next pending item: an album's cover and the album, then the closing warnings.
    private mutating func emit() -> SourceItem? {
        if !outbox.isEmpty { return outbox.removeFirst() }
        guard let album = albums.popLast() else {
            if foldersNotPermitted > 0 {
                let count = foldersNotPermitted
                foldersNotPermitted = 0
                return .warning("\(xml.path): art beside the tracks of \(count) album\(count == 1 ? "" : "s") not looked for: not under covers.fileRoots")
            }
            return nil
        }
        let label: AlbumLabel = "\(xml.path) line \(album.line) album '\(album.title.prefix(80))'"
        var cover: Result<CoverImage, CoverImage.Warning>?
        if let folder = album.folder {
            cover = CoverImage.beside(folder, roots: context.fileRoots, maxBytes: context.limits.coverBytes, for: album.title)
            if cover == nil, context.fileRoots.permitted(folder) == nil { foldersNotPermitted += 1 }
        }
        outbox = SourceItem.album(album.record(names: fieldNames), label: label, cover: cover)
        return outbox.removeFirst()
    }
}
