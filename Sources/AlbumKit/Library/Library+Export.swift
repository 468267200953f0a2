import Foundation

/// What an export wrote.
public struct ExportReport: Sendable, Hashable {
    /// Albums written.
    public var albums: Int
    /// Bytes written.
    public var bytes: Int64
    /// The exporter that wrote them (`bundle`, `json`).
    public var exporter: String
}

extension Library {
    /// Writes the library to `destination` with the exporter registered as `format`, else the
    /// one for its file ending (a backup bundle, an album list, a table); `fields` names the
    /// fields an exporter that chooses them writes (an error for any other). An existing file is
    /// replaced only when `replacing`; a missing folder is an error naming it. Publishes
    /// `export.started`, `export.progress`, `export.finished`.
    @discardableResult
    public func export(to destination: URL, replacing: Bool = false, format: String? = nil, fields: [String]? = nil) async throws -> ExportReport {
        let exporter = try format.map { name throws(AlbumKitError) in try registry.exporter(named: name) } ?? registry.exporter(for: destination.path)
        if fields != nil, !exporter.choosesFields {
            let choosing = registry.exporters.filter(\.choosesFields).flatMap(\.fileEndings)
            throw AlbumKitError(.unsupported, "--fields: the \(exporter.name) exporter writes every field; fields are chosen for \(choosing.joined(separator: ", "))")
        }
        let folder = destination.deletingLastPathComponent()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw AlbumKitError(.fileSystem, "\(destination.path): the folder \(folder.path) does not exist; create it first")
        }
        if !replacing, FileManager.default.fileExists(atPath: destination.path) {
            throw AlbumKitError(.fileSystem, "\(destination.path) already exists; add --force to replace it")
        }
        // What an export to the same file that was killed left beside it.
        LeftoverFiles.sweep(folder, only: destination.lastPathComponent)
        // A library held in memory is exported from there; one read by points is read again
        // by the exporter, a run at a time, so that no export holds every album.
        var contents = held != nil ? contents(of: try await snapshot()) : ExportContents(storage: storage)
        contents.fields = fields
        hub.publish(.exportStarted(path: destination.path, albums: try await count()))
        let bytes = try await exporter.export(contents, to: destination, hub: hub)
        let albums = contents.albumsRead.count
        hub.publish(.exportFinished(path: destination.path, albums: albums, bytesWritten: bytes))
        return ExportReport(albums: albums, bytes: bytes, exporter: exporter.name)
    }

    /// `snapshot` with this library's covers and history steps, for an exporter.
    func contents(of snapshot: LibrarySnapshot) -> ExportContents {
        let storage = storage
        return ExportContents(snapshot: snapshot, covers: storage.covers, steps: { try await storage.steps($0) })
    }

    /// Saves `contents` as a new bundle in `backups/` inside the library folder (restore
    /// `--force`, migrate `--replace`); returns its path.
    func backUp(_ contents: ExportContents) async throws -> URL {
        let folder = configuration.libraryDirectory.appendingPathComponent("backups")
        try AtomicFile.makeFolder(folder)
        LeftoverFiles.sweep(folder)
        let stamp = Date().formatted(.iso8601).replacingOccurrences(of: ":", with: "-")
        var file = folder.appendingPathComponent("library-\(stamp).tar.gz")
        var attempt = 1
        while FileManager.default.fileExists(atPath: file.path) {
            attempt += 1
            file = folder.appendingPathComponent("library-\(stamp)-\(attempt).tar.gz")
        }
        _ = try await registry.exporter(for: file.path).export(contents, to: file, hub: NotificationHub())
        return file
    }
}
