import AlbumKit
import Foundation

/// Cover bytes a source found, under the content address albums name them by
/// (`covers/<sha256>.<ext>`), the kind told by the bytes themselves.
public struct CoverImage: Sendable {
    /// The names of art files beside tracks that sources look for, in order of preference.
    public static let besideNames = [
        "cover.jpg", "folder.jpg", "cover.jpeg", "folder.jpeg", "cover.png", "folder.png", "cover.gif", "folder.gif", "cover.webp", "folder.webp",
    ]

    /// Where albums point to it.
    public let key: CoverKey
    /// The bytes.
    public let bytes: Data

    /// The image `bytes` hold, or nil when they are not an image of a kind covers may be.
    public init?(bytes: Data) {
        guard let kind = ImageKind(sniffing: bytes) else { return nil }
        key = CoverKey(bytes: bytes, fileExtension: kind.fileExtension)
        self.bytes = bytes
    }

    /// The item that carries the bytes to the import.
    public var item: SourceItem { .cover(path: key.bundlePath, bytes: bytes) }

    /// The reference an album names the cover by.
    public var reference: String { key.bundlePath }

    /// The image in the file at `url`, read only when `roots` permit it (after following
    /// links) and it holds at most `maxBytes`. A file that is missing gives nil; one that is
    /// refused, unreadable, too large or not an image gives a warning, so the album comes in
    /// without a cover rather than failing the import.
    public static func read(_ url: URL, roots: FileRoots, maxBytes: Int64, for album: String) -> Result<CoverImage, Warning>? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let bytes: Data
        do {
            bytes = try roots.read(url, maxBytes: Int(clamping: maxBytes), reference: url.path)
        } catch {
            return .failure(Warning("album '\(album)': cover \(error.description); no cover"))
        }
        guard let image = CoverImage(bytes: bytes) else {
            return .failure(Warning("album '\(album)': cover \(url.path) is not a JPEG, PNG, GIF or WebP image; no cover"))
        }
        return .success(image)
    }

    /// The first of ``besideNames`` in `folder` that holds an image, read as ``read(_:roots:maxBytes:for:)``
    /// reads; nil when `roots` do not permit the folder or it has none.
    public static func beside(_ folder: URL, roots: FileRoots, maxBytes: Int64, for album: String) -> Result<CoverImage, Warning>? {
        guard roots.permitted(folder) != nil else { return nil }
        for name in besideNames {
            if let found = read(folder.appendingPathComponent(name), roots: roots, maxBytes: maxBytes, for: album) { return found }
        }
        return nil
    }

    /// Why a cover was left out: a sentence for a ``SourceItem/warning(_:)``.
    public struct Warning: Error, Sendable {
        /// The sentence.
        public let message: String
        /// A warning saying `message`.
        public init(_ message: String) { self.message = message }
    }
}

extension SourceItem {
    /// The items that bring in `record` with what was found of its cover: the cover's bytes
    /// then the album naming them, a warning then the album without one, or the album alone.
    public static func album(_ record: AlbumRecord, label: AlbumLabel, cover: Result<CoverImage, CoverImage.Warning>?) -> [SourceItem] {
        var record = record
        switch cover {
        case .success(let image)?:
            record.coverUrl = image.reference
            return [image.item, .album(record, label: label)]
        case .failure(let warning)?:
            return [.warning(warning.message), .album(record, label: label)]
        case nil:
            return [.album(record, label: label)]
        }
    }
}
