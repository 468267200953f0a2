import AlbumKit
import Foundation
import SourceSupport

/// Reads `beet export` JSON — an array (`-f json`, the default) or one object per line
/// (`-f jsonlines`) — of albums or of tracks. Tracks are gathered into their albums (by
/// `album_id`, else album artist and album), the first track's fields standing for the album.
/// The file is read whole, up to `limits.listBytes`, as album lists are.
struct BeetsExportReader: SourceItemReader {
    private let path: String
    private var outbox: [SourceItem] = []

    init(_ url: URL, context: SourceContext) throws(AlbumKitError) {
        path = url.path
        let data = try Self.contents(of: url, limit: context.limits.listBytes)
        let objects = try Self.objects(in: data, path: path)
        var albums: [(label: String, fields: BeetsAlbum)] = []
        var trackAlbums: [String: Int] = [:]
        var singletons = 0
        for (index, object) in objects.enumerated() {
            var fields = object.fields
            if object.isTrack {
                guard !fields.album.isEmpty else {
                    singletons += 1
                    continue
                }
                if fields.albumArtist.isEmpty { fields.albumArtist = object.artist }
                let key = object.albumID ?? "\(fields.albumArtist)\u{0}\(fields.album)"
                guard trackAlbums[key] == nil else { continue }
                trackAlbums[key] = albums.count
            }
            albums.append(("\(path) object \(index + 1)", fields))
        }
        let roots = FileRoots(context.fileRoots.paths + [url.deletingLastPathComponent().path])
        for (place, fields) in albums {
            let label: AlbumLabel = "\(place) '\(fields.album.prefix(80))'"
            do {
                let record = try fields.record()
                let cover = fields.cover(musicDirectory: nil, roots: roots, maxBytes: context.limits.coverBytes)
                outbox += SourceItem.album(record, label: label, cover: cover)
            } catch {
                outbox.append(.invalid(fields.partialRecord, label: label, reason: error.message))
            }
        }
        if singletons > 0 { outbox.append(.warning("\(path): \(singletons) track\(singletons == 1 ? "" : "s") without an album skipped")) }
        outbox.append(.progress(bytesRead: Int64(data.count), totalBytes: Int64(data.count)))
        outbox.reverse()
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
