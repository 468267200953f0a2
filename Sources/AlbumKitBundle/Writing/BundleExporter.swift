import AlbumKit
import Foundation

/// `bundle`: the full backup (SPEC 3) — albums, memento and every stored cover in one archive,
/// `.tar.gz`/`.tgz`, `.tar.zst`, `.tar.xz` or `.tar` as the name says.
public struct BundleExporter: Exporter {
    public init() {}

    public var name: String { "bundle" }
    public var summary: String { "a backup bundle: albums, history and covers in one archive" }
    public var fileEndings: [String] { BundleCompression.endings.map(\.ending) }

    public func export(_ contents: ExportContents, to destination: URL, hub: NotificationHub) async throws -> Int64 {
        try await BundleWriter(compression: try BundleCompression(path: destination.path), generator: contents.generator)
            .write(contents, to: destination, hub: hub)
    }
}
