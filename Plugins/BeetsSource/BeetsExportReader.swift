import AlbumKit
import Foundation
import SourceSupport

/// Reads `beet export` JSON — an array (`-f json`, the default) or one object per line
/// (`-f jsonlines`) — of albums or of tracks, and maps each album as the database's
/// (``BeetsAlbum/record()``). Tracks are gathered into their albums (by `album_id`, else album
/// artist and album), in disc and track order; the album takes the attributes all its tracks
/// share, and its beets id from their `album_id`. The file is read whole, up to
/// `limits.listBytes`, as album lists are.
struct BeetsExportReader: SourceItemReader {
    private let path: String
    private var outbox: [SourceItem] = []

    init(_ url: URL, context: SourceContext) throws(AlbumKitError) {
        path = url.path
        let data = try Self.contents(of: url, limit: context.limits.listBytes)
        let objects = try Self.objects(in: data, path: path)
        var albums: [(place: String, attributes: [String: String], items: [[String: String]])] = []
        var trackAlbums: [String: Int] = [:]
        var singletons = 0
        var droppedKeys = Tally()
        for (index, object) in objects.enumerated() {
            for key in object.droppedKeys { droppedKeys.add(key) }
            var values = object.unformatted
            let place = "\(path) object \(index + 1)"
            guard object.isTrack else {
                albums.append((place, values, []))
                continue
            }
            guard let album = values["album"] else {
                singletons += 1
                continue
            }
            if values["albumartist"] == nil { values["albumartist"] = values["artist"] }
            let key = values["album_id"] ?? "\(values["albumartist"] ?? "")\u{0}\(album)"
            if let at = trackAlbums[key] {
                albums[at].items.append(values)
            } else {
                trackAlbums[key] = albums.count
                albums.append((place, [:], [values]))
            }
        }
        let roots = FileRoots(context.fileRoots.paths + [url.deletingLastPathComponent().path])
        for (place, attributes, items) in albums {
            let album = items.isEmpty ? BeetsAlbum(exported: attributes, items: []) : Self.album(ofTracks: items)
            let label: AlbumLabel = "\(place) '\(album.album.prefix(80))'"
            do {
                let record = try album.record()
                let cover = album.cover(musicDirectory: nil, roots: roots, maxBytes: context.limits.coverBytes)
                outbox += SourceItem.album(record, label: label, cover: cover)
            } catch {
                outbox.append(.invalid(album.partialRecord, label: label, reason: error.message))
            }
        }
        if singletons > 0 { outbox.append(.warning("\(path): \(singletons) track\(singletons == 1 ? "" : "s") without an album skipped")) }
        if droppedKeys.total > 0 {
            let keys = droppedKeys.seen.map { "'\($0.value)' (\($0.count))" }.joined(separator: ", ")
            outbox.append(.warning("\(path): keys whose value is an array or an object not kept: \(keys)"))
        }
        outbox.append(.progress(bytesRead: Int64(data.count), totalBytes: Int64(data.count)))
        outbox.reverse()
    }

    /// The album of a track export's tracks, which carry their album's attributes as well as
    /// their own (README, beets): beets's album attributes as most tracks have them (the first
    /// track's on a tie; an attribute a track lacks counts as unset), every other attribute but
    /// those beets keeps for each file when all its tracks have it alike; its beets id their
    /// `album_id`, the tracks in disc and track order.
    private static func album(ofTracks items: [[String: String]]) -> BeetsAlbum {
        func order(_ item: (offset: Int, element: [String: String])) -> (Int, Int, Int) {
            (item.element["disc"].flatMap { Int($0) } ?? 0, item.element["track"].flatMap { Int($0) } ?? 0, item.offset)
        }
        let sorted = items.enumerated().sorted { order($0) < order($1) }.map(\.element)
        var shared = sorted[0].filter {
            !BeetsExport.itemFields.contains($0.key) && !BeetsAlbum.itemOwn.contains($0.key) && !BeetsExport.albumItemFields.contains($0.key)
        }
        for item in sorted.dropFirst() {
            shared = shared.filter { item[$0.key] == $0.value }
        }
        let named = Set(sorted.flatMap(\.keys)).intersection(BeetsExport.albumItemFields)
        for name in named {
            // Unset is a value too: a label one track of three has is not the album's.
            let unset = "\u{0}"
            var values = Tally()
            for item in sorted { values.add(item[name] ?? unset) }
            if values.mostCommon != unset { shared[name] = values.mostCommon }
        }
        shared["id"] = sorted[0]["album_id"]
        return BeetsAlbum(exported: shared, items: sorted)
    }

    mutating func next() throws -> SourceItem? { outbox.popLast() }

    private static func contents(of url: URL, limit: Int64) throws(AlbumKitError) -> Data {
        guard let handle = FileHandle(forReadingAtPath: url.path) else {
            throw AlbumKitError(.fileSystem, "\(url.path): cannot be read")
        }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: Int(clamping: limit) + 1)) ?? Data()
        guard data.count <= limit else {
            throw AlbumKitError(.limitExceeded, "\(url.path): larger than \(limit) bytes (limits.listBytes)")
        }
        return data
    }

    /// The objects of an array, or of JSON lines; an error names the object or line.
    private static func objects(in data: Data, path: String) throws(AlbumKitError) -> [BeetsExportObject] {
        let decoder = JSONDecoder()
        if data.first(where: { $0 > 0x20 }) == UInt8(ascii: "[") {
            do {
                return try decoder.decode([BeetsExportObject].self, from: data)
            } catch {
                throw AlbumKitError(.unreadableInput, "\(path): not beet export JSON (\(summary(of: error)))")
            }
        }
        var objects: [BeetsExportObject] = []
        for (index, line) in data.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated()
        where line.contains(where: { $0 > 0x20 }) {
            do {
                objects.append(try decoder.decode(BeetsExportObject.self, from: line))
            } catch {
                throw AlbumKitError(.unreadableInput, "\(path) line \(index + 1): not a beet export object (\(summary(of: error)))")
            }
        }
        return objects
    }

    /// Where decoding failed (`object 3, 'year'`) and why, in a few words.
    private static func summary(of error: any Error) -> String {
        guard let error = error as? DecodingError else { return String(describing: error) }
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let found), .valueNotFound(_, let found), .keyNotFound(_, let found), .dataCorrupted(let found): context = found
        @unknown default: return String(describing: error)
        }
        let place = context.codingPath.map { $0.intValue.map { "object \($0 + 1)" } ?? "'\($0.stringValue)'" }.joined(separator: ", ")
        let detail = context.underlyingError.map { "\($0)" } ?? context.debugDescription
        return place.isEmpty ? detail : "\(place): \(detail)"
    }
}
