import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Whole-file writes that a crash cannot tear: write a temporary file beside the target,
/// fsync it, rename it over the target, fsync the folder. (Not `FileManager.replaceItemAt`,
/// which on Linux renames the wrong way and destroys the new file.)
public enum AtomicFile {
    /// Writes `data` to `url` atomically. An existing file keeps its permission bits. Without
    /// `syncingFolder`, the caller syncs the folder once after several writes.
    public static func write(_ data: Data, to url: URL, syncingFolder: Bool = true) throws {
        try write(to: url, syncingFolder: syncingFolder) { fd in
            try data.withUnsafeBytes { buffer in
                try writeAll(fd, buffer, path: url.path)
            }
        }
    }

    /// Creates a temporary file beside `url`, lets `fill` write into its descriptor, then
    /// syncs and renames it over `url`. Without `syncingFile`, the caller flushes the file
    /// system before anything names the file (cover batches). On any error the temporary file
    /// is removed.
    public static func write(
        to url: URL, syncingFile: Bool = true, syncingFolder: Bool = true, _ fill: (Int32) throws -> Void
    ) throws {
        let file = try TemporaryFile(beside: url)
        try fill(file.descriptor)
        try file.commit(syncingFile: syncingFile, syncingFolder: syncingFolder)
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
