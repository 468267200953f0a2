import Foundation

/// The folders outside an input that AlbumKit may read files from (`covers.fileRoots`): an
/// imported list can name `file:///etc/passwd` as a cover, and with no root configured
/// nothing is ever read. A path is permitted when, after following every link, it lies under
/// one of the roots.
public struct FileRoots: Sendable, Hashable {
    /// The roots, as real paths.
    public let paths: [String]

    /// Roots at `paths` (links in them are followed once, now).
    public init(_ paths: [String]) {
        self.paths = paths.map { URL(fileURLWithPath: $0).resolvingSymlinksInPath().standardizedFileURL.path }
    }

    /// The real path of `url` when it lies under a root, else nil.
    public func permitted(_ url: URL) -> String? {
        let real = url.resolvingSymlinksInPath().standardizedFileURL.path
        return paths.contains { real == $0 || real.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") } ? real : nil
    }

    /// The bytes of the file at `url`, which must lie under a root and hold at most
    /// `maxBytes`; errors name `reference` (how the input named the file).
    public func read(_ url: URL, maxBytes: Int, reference: String) throws(AlbumKitError) -> Data {
        guard let real = permitted(url) else {
            throw AlbumKitError(.unsupported, "\(reference): not under any of covers.fileRoots (\(paths.isEmpty ? "none configured" : paths.joined(separator: ", "))); not read")
        }
        guard let handle = FileHandle(forReadingAtPath: real) else {
            throw AlbumKitError(.fileSystem, "\(reference): cannot be read")
        }
        defer { try? handle.close() }
        let bytes = (try? handle.read(upToCount: maxBytes + 1)) ?? Data()
        guard bytes.count <= maxBytes else {
            throw AlbumKitError(.limitExceeded, "\(reference): larger than \(maxBytes) bytes (covers.maxBytes)")
        }
        return bytes
    }
}
