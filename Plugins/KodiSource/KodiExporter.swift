import AlbumKit
import Foundation
import SourceSupport

/// The `kodi` exporter (`export DIR --format kodi`, SPEC 12): a folder per album,
/// `Artist/Album (Year)/` with names safe on every file system, holding Kodi's `album.nfo` and
/// the stored cover as `folder.jpg` (`folder.png` for a PNG), so that Kodi scans it and
/// `albumkit import DIR` gives the same albums back. The tree is written under a temporary
/// name beside `DIR` and renamed into place when complete (an existing `DIR` is replaced only
/// as `export --force` asks).
public struct KodiExporter: Exporter {
    public init() {}

    public var name: String { "kodi" }
    public var summary: String { "a folder per album with Kodi's album.nfo and folder.jpg (export DIR --format kodi)" }
    /// A folder has no ending: `--format kodi` chooses it.
    public var fileEndings: [String] { [] }

    public func export(_ contents: ExportContents, to destination: URL, hub: NotificationHub) async throws -> Int64 {
        let albums = try await contents.snapshot().albums
        let parent = destination.deletingLastPathComponent()
        let temporary = parent.appendingPathComponent(".\(destination.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try AtomicFile.makeFolder(temporary)
        var finished = false
        defer { if !finished { try? FileManager.default.removeItem(at: temporary) } }
        var names = KodiFolderNames()
        var bytes: Int64 = 0
        for album in albums {
            let folder = temporary.appendingPathComponent(names.folder(for: album))
            try AtomicFile.makeFolder(folder)
            let nfo = Data(KodiAlbumNFOWriter.document(for: album).utf8)
            try write(nfo, to: folder.appendingPathComponent("album.nfo"))
            bytes += Int64(nfo.count)
            if let reference = album.coverUrl, let key = CoverKey(fileName: reference), let cover = try await contents.coverBytes(key) {
                try write(cover, to: folder.appendingPathComponent(key.fileExtension == "png" ? "folder.png" : "folder.\(key.fileExtension)"))
                bytes += Int64(cover.count)
            }
        }
        try replace(destination, with: temporary)
        finished = true
        hub.publish(.exportProgress(path: destination.path, albums: albums.count, totalAlbums: albums.count, covers: 0, bytesWritten: bytes))
        return bytes
    }

    private func write(_ data: Data, to file: URL) throws {
        guard FileManager.default.createFile(atPath: file.path, contents: data) else {
            throw AlbumKitError(.fileSystem, "\(file.path): cannot be written")
        }
    }

    /// Renames the finished tree `temporary` to `destination`; an existing `destination` (the
    /// export checked `--force`) is moved aside first and removed after.
    private func replace(_ destination: URL, with temporary: URL) throws {
        var old: URL?
        if FileManager.default.fileExists(atPath: destination.path) {
            let aside = temporary.appendingPathExtension("old")
            guard rename(destination.path, aside.path) == 0 else {
                throw AlbumKitError(.fileSystem, "\(destination.path): cannot move the old folder aside: \(String(cString: strerror(errno)))")
            }
            old = aside
        }
        guard rename(temporary.path, destination.path) == 0 else {
            let code = errno
            if let old { _ = rename(old.path, destination.path) }
            throw AlbumKitError(.fileSystem, "\(destination.path): cannot rename the new folder into place: \(String(cString: strerror(code)))")
        }
        AtomicFile.syncFolder(destination.deletingLastPathComponent().path)
        if let old { try? FileManager.default.removeItem(at: old) }
    }
}

/// `Artist/Album (Year)` folder names, safe on every file system (no `/ \ : * ? " < > |`,
/// control characters, leading or trailing dots and spaces, or a reserved Windows name; at
/// most 120 bytes a part), each used once whatever its case.
struct KodiFolderNames {
    private var used = Set<String>()

    /// The folder for `album`, unique among those given so far.
    mutating func folder(for album: Album) -> String {
        let artist = Self.safe(album.artist)
        let title = Self.safe(album.year.isEmpty ? album.title : "\(album.title) (\(album.year))")
        var candidate = "\(artist)/\(title)"
        var number = 2
        while !used.insert(candidate.lowercased()).inserted {
            candidate = "\(artist)/\(title) (\(number))"
            number += 1
        }
        return candidate
    }

    private static let reserved = Set(["con", "prn", "aux", "nul"] + (1...9).flatMap { ["com\($0)", "lpt\($0)"] })

    /// `text` as one path component every file system takes.
    static func safe(_ text: String) -> String {
        var name = String(text.unicodeScalars.map { scalar -> Character in
            scalar.value < 0x20 || scalar.value == 0x7F || "/\\:*?\"<>|".unicodeScalars.contains(scalar) ? "_" : Character(scalar)
        })
        name = name.trimmingCharacters(in: CharacterSet(charactersIn: " ."))
        while name.utf8.count > 120 { name.removeLast() }
        name = name.trimmingCharacters(in: CharacterSet(charactersIn: " ."))
        if name.isEmpty { return "_" }
        let stem = name.split(separator: ".", maxSplits: 1).first.map { String($0).lowercased() } ?? ""
        return reserved.contains(stem) ? name + "_" : name
    }
}

/// Kodi's `album.nfo` for an album: what Kodi's own writer puts first (title, MusicBrainz
/// release id, the artist as `<artistdesc>` and `<albumArtistCredits>`, genre, year) and the
/// cover URL as `<thumb>` when it is one; an id of AlbumKit's own goes to `<albumkitid>`, which
/// Kodi ignores and `import` reads back.
enum KodiAlbumNFOWriter {
    static func document(for album: Album) -> String {
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\" ?>", "<album>"]
        func element(_ name: String, _ value: String, indent: String = "    ") {
            lines.append("\(indent)<\(name)>\(escaped(value))</\(name)>")
        }
        element("title", album.title)
        let id = album.id.rawValue
        if id.hasPrefix("mb:") { element("musicbrainzalbumid", String(id.dropFirst(3))) } else { element("albumkitid", id) }
        element("artistdesc", album.artist)
        lines.append("    <albumArtistCredits>")
        element("artist", album.artist, indent: "        ")
        for (name, value) in album.fields.sorted(by: { $0.key < $1.key }) where name.hasPrefix(KodiAlbumNFO.creditFields) {
            let child = String(name.dropFirst(KodiAlbumNFO.creditFields.count))
            element(KodiAlbumNFO.creditSpellings[child] ?? child, value, indent: "        ")
        }
        lines.append("    </albumArtistCredits>")
        if !album.genre.isEmpty { element("genre", album.genre) }
        for tag in album.tags { element("style", tag) }
        if !album.year.isEmpty { element("year", album.year) }
        if let released = album[.released] ?? album.fields["kodi.releasedate"] { element("releasedate", released) }
        if let label = album[.label] { element("label", label) }
        if let rating = album.rating { lines.append("    <rating max=\"10\">\(ratingText(rating * 2))</rating>") }
        if let notes = album[.notes] { element("review", notes) }
        if let group = album.ids["musicbrainzGroup"] { element("musicbrainzreleasegroupid", group) }
        if let url = album.coverUrl, url.lowercased().hasPrefix("http://") || url.lowercased().hasPrefix("https://") { element("thumb", url) }
        // The `kodi.<element>` fields an import kept, as the elements they came from.
        func kodiElements(_ fields: [String: String], except named: Set<String>, indent: String) {
            for (name, value) in fields.sorted(by: { $0.key < $1.key }) where name.hasPrefix("kodi.") {
                let element = String(name.dropFirst(5))
                if !element.contains("."), !named.contains(element) { lines.append("\(indent)<\(element)>\(escaped(value))</\(element)>") }
            }
        }
        kodiElements(album.fields, except: KodiAlbumNFO.namedElements, indent: "    ")
        for track in album.tracks {
            lines.append("    <track>")
            if let number = track.number { element("position", String(number), indent: "        ") }
            element("title", track.title, indent: "        ")
            if let seconds = track.seconds { element("duration", duration(seconds), indent: "        ") }
            if let id = track.ids["musicbrainz"] { element("musicbrainztrackid", id, indent: "        ") }
            kodiElements(track.fields, except: KodiAlbumNFO.namedTrackElements, indent: "        ")
            lines.append("    </track>")
        }
        lines.append("</album>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `8` or `9.5`: a number on Kodi's scale of 10.
    static func ratingText(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// Whole seconds as `mm:ss` (`h:mm:ss` from an hour), as Kodi writes a track's duration.
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        let tail = String(format: "%02d:%02d", minutes, rest)
        return hours > 0 ? "\(hours):\(tail)" : tail
    }

    /// `text` as element content: `&`, `<` and `>` escaped.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
