import AlbumKit
import Foundation

/// Writes a library as a bundle (SPEC 3): `manifest.json` first, then `albums.json`,
/// `state.json`, every cover once, and `checksums.sha256` last — streaming, one cover in
/// memory at a time, to a temporary name renamed into place when complete.
public struct BundleWriter: Sendable {
    /// How the archive is compressed.
    public var compression: BundleCompression
    /// What `manifest.json` names as its generator ("albumkit 0.1.0").
    public var generator: String

    public init(compression: BundleCompression, generator: String) {
        self.compression = compression
        self.generator = generator
    }

    /// Writes `contents` and the covers `keys` names (default: every stored cover) to
    /// `destination`; reports `export.progress` on `hub` when given. Returns the bytes written.
    @discardableResult
    public func write(
        _ contents: ExportContents, keys: [CoverKey]? = nil, to destination: URL, hub: NotificationHub? = nil
    ) async throws -> Int64 {
        let snapshot = contents.snapshot
        let path = destination.path
        let total = snapshot.albums.count
        let file = try TemporaryFile(beside: destination)
        let archive = try ArchiveWriter(descriptor: file.descriptor, path: path, compression: compression)
        var sums: [(path: String, digest: String)] = []
        func add(_ name: String, _ bytes: Data) throws {
            try archive.add(name, bytes)
            sums.append((name, SHA256Digest.hex(of: bytes)))
        }
        let json = JSONFormat()
        try add("manifest.json", try json.encode(BundleManifest(albumCount: total, generator: generator)))
        try add("albums.json", try json.encode(snapshot.albums))
        try add("state.json", try json.encode(try await contents.stateFile()))
        hub?.publish(.exportProgress(path: path, albums: total, totalAlbums: total, bytesWritten: archive.bytesWritten))
        let coverKeys = if let keys { keys } else { try await contents.coverKeys() }
        for key in coverKeys {
            guard let bytes = try await contents.coverBytes(key) else { continue }
            try add(key.bundlePath, bytes)
            hub?.publish(.exportProgress(path: path, albums: total, totalAlbums: total, bytesWritten: archive.bytesWritten))
        }
        try archive.add(ChecksumList.entryName, ChecksumList.render(sums))
        try archive.close()
        try file.commit()
        return archive.bytesWritten
    }
}
