import Foundation

/// Something `import` reads albums from: a JSON list, a property list, a bundle.
///
/// ## Implementation requirements
/// - ``canRead(name:prefix:)`` decides from the file name and its first bytes alone, cheaply.
/// - ``items(from:limits:)`` streams: it yields albums (and, for bundles, cover bytes) as it
///   reads them and never holds a whole archive in memory. It stops with an
///   ``AlbumKitError`` that names the input and the entry at the first problem, and writes
///   nothing anywhere.
public protocol AlbumSource: Sendable {
    /// A short name for `albumkit plugins` ("json", "plist", "bundle").
    var name: String { get }
    /// Whether this source reads an input with this file name whose first bytes are `prefix`.
    func canRead(name: String, prefix: Data) -> Bool
    /// The albums and covers in `input`, in the order they are read.
    func items(from input: URL, limits: Limits) -> AsyncThrowingStream<SourceItem, any Error>
}

/// One thing an ``AlbumSource`` read.
public enum SourceItem: Sendable {
    /// An album as the input gives it, with a label that names it in messages.
    case album(AlbumRecord, label: String)
    /// Cover bytes found at a bundle-relative `path` (`covers/<sha256>.<ext>`).
    case cover(path: String, bytes: Data)
    /// The memento a bundle carries (`state.json`); `restore` adopts it, `import` ignores it.
    case state(LibraryState)
    /// A problem that does not stop the import (a referenced cover the bundle lacks).
    case warning(String)
    /// How far the source is: bytes read so far and, when known, in all.
    case progress(bytesRead: Int64, totalBytes: Int64?)
}
