import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Whole-file writes that a crash cannot tear: write a temporary file beside the target,
/// fsync it, rename it over the target, fsync the folder. (Not `FileManager.replaceItemAt`,
/// which on Linux renames the wrong way and destroys the new file.)
public enum AtomicFile {
    /// Writes `data` to `url` atomically. An existing file keeps its permission bits.
    public static func write(_ data: Data, to url: URL) throws {
        try write(to: url) { fd in
            try data.withUnsafeBytes { buffer in
                try writeAll(fd, buffer, path: url.path)
            }
        }
    }

    /// Creates a temporary file beside `url`, lets `fill` write into its descriptor, then
    /// syncs and renames it over `url`. On any error the temporary file is removed.
    public static func write(to url: URL, _ fill: (Int32) throws -> Void) throws {
        let path = url.path
        let folder = url.deletingLastPathComponent().path
        let temporary = "\(folder)/.\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        var status = stat()
        let mode: mode_t = stat(path, &status) == 0 ? status.st_mode & 0o7777 : 0o644
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw AlbumKitError.fileSystem(temporary, "create a temporary file", errno: errno) }
        do {
            try fill(fd)
            guard fsync(fd) == 0 else { throw AlbumKitError.fileSystem(temporary, "sync", errno: errno) }
            guard close(fd) == 0 else { throw AlbumKitError.fileSystem(temporary, "close", errno: errno) }
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw AlbumKitError.fileSystem(path, "replace", errno: code)
        }
        syncFolder(folder)
    }

    /// Writes every byte of `buffer` to `fd`.
    public static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, path: String) throws {
        var offset = 0
        while offset < buffer.count {
            let written = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw AlbumKitError.fileSystem(path, "write", errno: errno)
            }
            offset += written
        }
    }

    /// Makes a rename in `folder` durable.
    public static func syncFolder(_ folder: String) {
        let fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// Creates `folder` and its parents.
    public static func makeFolder(_ folder: URL) throws {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw AlbumKitError(.fileSystem, "\(folder.path): cannot create the folder: \(error.localizedDescription)")
        }
    }
}
