import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A file written beside its destination under a temporary name: ``commit()`` syncs it and
/// renames it into place; dropping it uncommitted removes it. What ``AtomicFile`` writes
/// through; writers that must `await` between writes (streaming bundles) use it directly.
/// It is locked while it lives, so a sweep (``LeftoverFiles``) removes it only once a crash
/// has left it behind.
public final class TemporaryFile {
    /// The open descriptor to write to.
    public let descriptor: Int32
    private let path: String
    private let destination: URL
    private var open = true

    /// Creates the temporary file beside `destination`, with the destination's permission bits
    /// when it exists.
    public init(beside destination: URL) throws(AlbumKitError) {
        let folder = destination.deletingLastPathComponent().path
        self.destination = destination
        var status = stat()
        let mode: mode_t = stat(destination.path, &status) == 0 ? status.st_mode & 0o7777 : 0o644
        while true {
            let path = "\(folder)/.\(destination.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            let descriptor = Glibc.open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            guard descriptor >= 0 else {
                throw AlbumKitError.fileSystem(path, "create a temporary file", errno: errno)
            }
            // A sweep in another process may have taken it for a leftover before it was locked.
            guard LeftoverFiles.claim(descriptor) else {
                close(descriptor)
                continue
            }
            (self.path, self.descriptor) = (path, descriptor)
            return
        }
    }

    /// Syncs the file, renames it over the destination and closes it, then syncs the folder
    /// (unless the caller will, after several). Without `syncingFile`, the caller flushes the
    /// file system before anything names the file (cover batches). Closed only once renamed:
    /// the lock it holds keeps sweeps away until then.
    public func commit(syncingFile: Bool = true, syncingFolder: Bool = true) throws(AlbumKitError) {
        guard !syncingFile || fsync(descriptor) == 0 else { throw failure("sync") }
        guard rename(path, destination.path) == 0 else { throw failure("rename to \(destination.path)") }
        open = false
        // The bytes are synced: a failing close has nothing left to report.
        close(descriptor)
        if syncingFolder { AtomicFile.syncFolder(destination.deletingLastPathComponent().path) }
    }

    deinit {
        guard open else { return }
        close(descriptor)
        unlink(path)
    }

    private func failure(_ operation: String) -> AlbumKitError {
        AlbumKitError.fileSystem(path, operation, errno: errno)
    }
}
