import AlbumKit
import Foundation
import SourceSupport

/// The fields of a beets album that AlbumKit takes, wherever they were read (the database or
/// an export), and how they become an album and its cover.
struct BeetsAlbum {
    var album = ""
    var albumArtist = ""
    var genre = ""
    /// The year as beets gives it: an integer in the database, text in an export.
    var year = ""
    var musicBrainzID = ""
    /// The art file's path, as beets stores it (bytes; relative to the music directory when
    /// the art lies inside it).
    var artPath = Data()

    /// The album record: `mb:<mb_albumid>` when set, year `0` as none.
    func record() throws(BeetsProblem) -> AlbumRecord {
        let digits = year.trimmingCharacters(in: .whitespaces)
        guard digits.isEmpty || (digits.allSatisfy { $0.isASCII && $0.isNumber } && digits.count <= 4) else {
            throw BeetsProblem("year '\(digits.prefix(20))' is not a year")
        }
        let number = Int(digits) ?? 0
        let id = musicBrainzID.trimmingCharacters(in: .whitespaces)
        return AlbumRecord(
            id: id.isEmpty ? nil : AlbumID("mb:\(id)"), title: album, artist: albumArtist, genre: genre,
            year: number == 0 ? "" : String(number))
    }

    /// What a plan shows of an album whose fields cannot make a record: its name and artist.
    var partialRecord: AlbumRecord { AlbumRecord(title: album, artist: albumArtist) }

    /// The first of beets's genres: older beets have one `genre`; newer ones a multi-valued
    /// `genres`, joined by `separator`.
    static func firstGenre(genre: String?, genres: String?, separator: String) -> String {
        if let genre, !genre.isEmpty { return genre }
        guard let genres else { return "" }
        return genres.components(separatedBy: separator).first?.trimmingCharacters(in: .whitespaces) ?? ""
    }

    /// The album's art, read when `artPath` (made absolute against `musicDirectory`) lies
    /// under `roots`: a cover image, a warning, or nil when it has none.
    func cover(musicDirectory: URL?, roots: FileRoots, maxBytes: Int64) -> Result<CoverImage, CoverImage.Warning>? {
        guard !artPath.isEmpty else { return nil }
        let path = artPath.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
        let url: URL
        if path.hasPrefix("/") {
            url = URL(fileURLWithPath: path)
        } else if let musicDirectory {
            url = musicDirectory.appendingPathComponent(path)
        } else {
            return nil
        }
        return CoverImage.read(url, roots: roots, maxBytes: maxBytes, for: album)
            ?? .failure(CoverImage.Warning("album '\(album)': artpath \(url.path) does not exist; no cover"))
    }
}

/// What is wrong with one beets album, in a few words; the reader adds the input and album.
struct BeetsProblem: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
