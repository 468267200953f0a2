import Foundation

/// Reads one input through the album source that recognises it — the part `import` and
/// `restore` share: validates each album, checks each bundle cover against its name and
/// stages it, keeps the state a bundle carries, notes covers the input names but lacks, and
/// publishes `import.progress`.
struct InputReader {
    /// What one input held.
    struct Contents {
        var albums: [IncomingAlbum] = []
        var state: LibraryState?
        var warnings: [String] = []
        var coversRead = 0
    }

    let registry: AdapterRegistry
    let limits: Limits
    let hub: NotificationHub
    /// The library's covers: a reference to one already stored is not a missing cover.
    let store: any CoverStore
    /// Folders outside the inputs that sources may read files from (`covers.fileRoots`).
    var fileRoots = FileRoots([])

    /// Reads `input`, staging its covers in `staging` (nil: check them only, as `--dry-run` does).
    func read(_ input: URL, staging: inout CoverStaging?) async throws -> Contents {
        let described = try SourceInput(at: input)
        let source = try source(for: described)
        var contents = Contents()
        var covers: [String: CoverKey] = [:]
        for try await item in source.items(from: described, context: SourceContext(limits: limits, fileRoots: fileRoots)) {
            switch item {
            case .album(let record, let label):
                let album = try record.validated(newID: .generate(), label: label)
                contents.albums.append(IncomingAlbum(album: album, hadID: record.id != nil))
            case .cover(let path, let bytes):
                let key = try checkedKey(bytes, path: path, input: input)
                try await staging?.stage(bytes, key: key)
                covers[path] = key
                contents.coversRead += 1
            case .state(let state):
                contents.state = state
            case .warning(let message):
                contents.warnings.append(message)
            case .progress(let read, let total):
                hub.publish(.importProgress(input: input.path, albums: contents.albums.count, bytesRead: read, totalBytes: total))
            }
        }
        for index in contents.albums.indices {
            guard let reference = contents.albums[index].album.coverUrl, reference.hasPrefix("covers/") else { continue }
            if let key = covers[reference] {
                contents.albums[index].album.coverUrl = key.bundlePath
            } else if let key = CoverKey(fileName: reference), try await store.contains(key) {
                continue
            } else {
                contents.warnings.append("\(input.path): album '\(contents.albums[index].album.title)' names cover \(reference), which the input lacks; its cover is missing")
            }
        }
        return contents
    }

    private func source(for input: SourceInput) throws -> any AlbumSource {
        guard let source = registry.source(for: input) else {
            let names = registry.albumSources.map(\.name).joined(separator: ", ")
            throw AlbumKitError(.unsupported, "\(input.path): no album source reads this input (registered: \(names))")
        }
        return source
    }

    /// The key of a bundle cover, whose name must be the SHA-256 of its bytes.
    private func checkedKey(_ bytes: Data, path: String, input: URL) throws -> CoverKey {
        guard let named = CoverKey(fileName: path) else {
            throw AlbumKitError.unreadable("\(input.path) entry \(path)", "a cover must be named covers/<sha256>.<ext>")
        }
        let actual = CoverKey(bytes: bytes, fileExtension: named.fileExtension)
        guard actual == named else {
            throw AlbumKitError.unreadable("\(input.path) entry \(path)", "the cover's bytes hash to \(actual.sha256), not to its name")
        }
        return actual
    }
}
