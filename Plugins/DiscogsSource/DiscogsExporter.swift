import AlbumKit
import Foundation

/// The `discogs` exporter (`export FILE.csv --format discogs`, SPEC 12): the Discogs collection
/// export's header and columns, then the custom columns the albums were imported with (in the
/// order first seen), a row per album with a Discogs id, each column as ``DiscogsColumns`` gives
/// it back. A Discogs export imported and exported again has the same header and the same value
/// in every column of every row. Albums without a Discogs id are left out. The albums are read
/// twice: once for the custom columns, which the header names, then for the rows. Written under a
/// temporary name and renamed when complete.
public struct DiscogsExporter: Exporter {
    public init() {}

    public var name: String { "discogs" }
    public var summary: String { "a Discogs collection export (CSV) of the albums with a Discogs id (--format discogs)" }
    /// `.csv` is the plain table's: `--format discogs` chooses this one.
    public var fileEndings: [String] { [] }

    public func export(_ contents: ExportContents, to destination: URL, hub: NotificationHub) async throws -> Int64 {
        let file = try TemporaryFile(beside: destination)
        var bytes: Int64 = 0
        var written = 0
        func write(_ line: String) throws {
            var line = line
            try line.withUTF8 { try AtomicFile.writeAll(file.descriptor, UnsafeRawBufferPointer($0), path: destination.path) }
            bytes += Int64(line.utf8.count)
        }
        var custom: [String] = []
        var seen = Set<String>()
        try await contents.read(inRunsOf: 1024) { piece in
            guard case .albums(let albums) = piece else { return }
            for album in albums where album.ids["discogs"] != nil {
                for column in DiscogsColumns.customColumns(of: album) where seen.insert(column).inserted { custom.append(column) }
            }
        }
        let header = DiscogsColumns.header + custom
        try write(CSVLine.line(header))
        try await contents.read(inRunsOf: 1024) { piece in
            guard case .albums(let albums) = piece else { return }
            var lines = ""
            for album in albums where album.ids["discogs"] != nil {
                lines += CSVLine.line(header.map { DiscogsColumns.value($0, of: album) })
                written += 1
            }
            try write(lines)
        }
        try file.commit()
        hub.publish(.exportProgress(path: destination.path, albums: written, totalAlbums: written, covers: 0, bytesWritten: bytes))
        return bytes
    }
}
