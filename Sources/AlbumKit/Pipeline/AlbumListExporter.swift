import Foundation

/// Writes the library's albums as a plain album list (`.json` or `.plist`), atomically —
/// the list a spreadsheet or another catalogue can read. Covers and state are not included;
/// a bundle is the full backup.
public struct AlbumListExporter<Format: LibraryFileFormat>: Sendable {
    public var format: Format

    public init(format: Format) { self.format = format }

    /// Writes `albums` to `destination` and announces it on `hub`; returns the bytes written.
    @discardableResult
    public func export(_ albums: [Album], to destination: URL, hub: NotificationHub) throws -> Int64 {
        hub.publish(.exportStarted(path: destination.path, albums: albums.count))
        let data = try format.encode(albums)
        try AtomicFile.write(data, to: destination)
        hub.publish(.exportFinished(path: destination.path, albums: albums.count, bytesWritten: Int64(data.count)))
        return Int64(data.count)
    }
}
