import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A file written beside its destination under a temporary name: ``commit()`` syncs it and
/// renames it into place; dropping it uncommitted removes it. What ``AtomicFile`` writes
/// through; writers that must `await` between writes (streaming bundles) use it directly.
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
        path = "\(folder)/.\(destination.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        self.destination = destination
        var status = stat()
        let mode: mode_t = stat(destination.path, &status) == 0 ? status.st_mode & 0o7777 : 0o644
        descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else {
            throw AlbumKitError(.fileSystem, "\(path): cannot create a temporary file: \(String(cString: strerror(errno)))")
        }
    }

    /// Syncs, closes and renames the file over the destination, then syncs the folder (unless
    /// the caller will, after several).
    public func commit(syncingFolder: Bool = true) throws(AlbumKitError) {
        guard fsync(descriptor) == 0, close(descriptor) == 0 else { throw failure("sync") }
        open = false
        guard rename(path, destination.path) == 0 else {
            let error = failure("rename to \(destination.path)")
            unlink(path)
            throw error
        }
        if syncingFolder { AtomicFile.syncFolder(destination.deletingLastPathComponent().path) }
    }

    deinit {
        guard open else { return }
        close(descriptor)
        unlink(path)
    }

    private func failure(_ operation: String) -> AlbumKitError {
        AlbumKitError(.fileSystem, "\(path): cannot \(operation): \(String(cString: strerror(errno)))")
    }
}
