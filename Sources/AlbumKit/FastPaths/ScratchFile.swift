import CFileSync
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A file for work that outgrows memory — an import's albums on their way to the commit. It
/// has no name (`O_TMPFILE`; where the file system has none, it is unlinked as soon as it is
/// made), so it vanishes with its descriptor however the process ends, and nothing sweeps it.
/// Written from the start by one owner, then read from anywhere by any number of readers
/// (`pread` keeps no shared position).
package final class ScratchFile: Sendable {
    /// The open descriptor, for reading and writing: a writer that writes a stream (an export's
    /// album list, compressed as it is written) writes to it from the start, with `write`.
    package let descriptor: Int32
    /// Names the file in errors: the folder it was made in.
    private let folder: String

    /// A new, empty scratch file in `folder` — the library folder, so that a large import's
    /// scratch lands on the library's disk, not in a `/tmp` that may be memory (`tmpfs`) — or
    /// in the system's temporary folder when `folder` does not exist.
    package init(in folder: URL) throws(AlbumKitError) {
        let chosen = FileManager.default.fileExists(atPath: folder.path) ? folder.path : FileManager.default.temporaryDirectory.path
        self.folder = chosen
        let unnamed = albumkit_open_unnamed(chosen, 0o600)
        if unnamed >= 0 {
            descriptor = unnamed
            return
        }
        while true {
            let path = "\(chosen)/.albumkit-scratch-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            let named = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if named < 0 && errno == EEXIST { continue }
            guard named >= 0 else { throw .fileSystem(chosen, "create a scratch file", errno: errno) }
            unlink(path)
            descriptor = named
            return
        }
    }

    deinit { close(descriptor) }

    /// Writes all of `bytes` at `offset`.
    package func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(AlbumKitError) {
        try transfer(bytes.count, at: offset, "write") { done in
            pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
        }
    }

    /// Reads `buffer.count` bytes at `offset` into `buffer`; throws when the file ends first.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(AlbumKitError) {
        try transfer(buffer.count, at: offset, "read") { done in
            pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
        }
    }

    /// Calls `call` with the bytes moved so far until `count` are, going on after an
    /// interrupted call; `operation` names it in errors.
    private func transfer(_ count: Int, at offset: Int, _ operation: String, _ call: (Int) -> Int) throws(AlbumKitError) {
        var done = 0
        while done < count {
            let moved = call(done)
            if moved < 0 {
                if errno == EINTR { continue }
                throw .fileSystem(folder, "\(operation) a scratch file", errno: errno)
            }
            guard moved > 0 else {
                throw AlbumKitError(.fileSystem, "\(folder): a scratch file ended at \(offset + done) bytes, before what was written to it")
            }
            done += moved
        }
    }
}
