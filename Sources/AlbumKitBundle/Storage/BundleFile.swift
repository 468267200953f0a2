import AlbumKit
import Foundation

/// Where a ``BundleStorage`` library lives and how it is read and written: shared by the
/// backend and its cover store.
struct BundleFile: Sendable {
    /// What `manifest.json` of a stored library names as its generator.
    static let generator = "albumkit bundle storage"

    /// The bundle file.
    let file: URL
    /// How the file is compressed (by its name; `library.tar` is not).
    let compression: BundleCompression
    /// Reading limits.
    let limits: Limits
    /// How long a writer waits for another to finish.
    let lockTimeout: Double

    /// The lock file beside the bundle.
    var lockPath: String { file.path + ".lock" }
}
