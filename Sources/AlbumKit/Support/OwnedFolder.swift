import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A new folder, locked by this process until it is dropped — what tells a sweep
/// (``LeftoverFiles``) it is not a leftover.
final class OwnedFolder: Sendable {
    /// The folder.
    let url: URL
    private let descriptor: Int32

    /// Makes the folder `url` (a name no one else uses; its parent too when missing) and takes
    /// its lock.
    init(at url: URL) throws {
        try AtomicFile.makeFolder(url.deletingLastPathComponent())
        while true {
            guard mkdir(url.path, 0o755) == 0 else { throw AlbumKitError.fileSystem(url.path, "create the folder", errno: errno) }
            let descriptor = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            // Gone already, or not locked in time: a sweep in another process took it for a
            // leftover. The name is still unique: make it again.
            guard descriptor >= 0 else { continue }
            guard LeftoverFiles.claim(descriptor) else {
                close(descriptor)
                continue
            }
            (self.url, self.descriptor) = (url, descriptor)
            return
        }
    }

    deinit { close(descriptor) }
}
