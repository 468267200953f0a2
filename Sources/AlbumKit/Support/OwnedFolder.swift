import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A new folder under a unique name (`<prefix><pid>-<n>`), locked by this process until it is
/// dropped — what tells a sweep it is not a leftover.
final class OwnedFolder: Sendable {
    /// The folder.
    let url: URL
    private let descriptor: Int32

    /// Makes the folder inside `parent` (and `parent` when missing) and takes its lock.
    init(inside parent: URL, prefix: String) throws {
        try AtomicFile.makeFolder(parent)
        while true {
            let url = parent.appendingPathComponent("\(prefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
            guard mkdir(url.path, 0o755) == 0 else { throw AlbumKitError.fileSystem(url.path, "create the folder", errno: errno) }
            let descriptor = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            // Gone already, or not locked in time: a sweep in another process took it for a leftover.
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
