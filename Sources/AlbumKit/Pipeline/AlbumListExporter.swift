import Foundation

/// Writes the library's albums as a plain album list (`.json` or `.plist`), atomically —
/// the list a spreadsheet or another catalogue can read. Covers and state are not included;
/// a bundle is the full backup.
public struct AlbumListExporter<Format: LibraryFileFormat>: Exporter {
    public let format: Format

    public init(format: Format) { self.format = format }

    public var name: String { format.name }
    public var summary: String { "a plain \(format.name) album list (no covers, no history)" }
    public var fileEndings: [String] { format.fileExtensions.map { "." + $0 } }

    public func export(_ contents: ExportContents, to destination: URL, hub: NotificationHub) async throws -> Int64 {
        let albums = try await contents.snapshot().albums
        let data = try format.encode(albums)
        try AtomicFile.write(data, to: destination)
        hub.publish(.exportProgress(path: destination.path, albums: albums.count, totalAlbums: albums.count, covers: 0, bytesWritten: Int64(data.count)))
        return Int64(data.count)
    }
}
