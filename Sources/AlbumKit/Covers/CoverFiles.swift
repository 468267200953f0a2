import CFileSync
import Foundation

/// Cover files written in bulk: each new file's write-back starts as soon as it is written,
/// and one flush of the file system then makes a whole batch durable — instead of an `fsync`
/// per file. A file gets its name only once every byte is in it (written unnamed, then
/// linked), so a killed import leaves no half-written cover under a cover's name. A cover file
/// is named by its hash, so a file with other bytes under its name (a crash's leftover from
/// a power cut) is replaced, and one with these bytes is left alone.
enum CoverFiles {
    /// Writes `bytes` as the new file at `path` (its folder exists), starting its write-back
    /// unless `writingBack` is false; false when the file is there with exactly these bytes.
    static func write(_ bytes: Data, toPath path: String, writingBack: Bool = true) throws -> Bool {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let descriptor = albumkit_open_unnamed(folder.isEmpty ? "/" : folder, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            // A file system without unnamed files: a named temporary file, renamed.
            guard code == EOPNOTSUPP || code == EISDIR || code == EINVAL else {
                throw AlbumKitError.fileSystem(path, "store the cover", errno: code)
            }
            return try replace(bytes, atPath: path, writingBack: writingBack)
        }
        defer { close(descriptor) }
        try bytes.withUnsafeBytes { try AtomicFile.writeAll(descriptor, $0, path: path) }
        // The name is taken (EEXIST), or it cannot be given this way (no `/proc`, no right to
        // `AT_EMPTY_PATH`): through a named temporary file instead.
        guard albumkit_link_unnamed(descriptor, path) == 0 else { return try replace(bytes, atPath: path, writingBack: writingBack) }
        // The disk starts on it now, while the next cover is read; the flush waits for all.
        if writingBack { _ = albumkit_start_writeback(descriptor) }
        return true
    }

    /// Writes `bytes` to `path` through a named temporary file renamed over it (its write-back
    /// started when `writingBack`, for the batch's flush), unless the file there holds exactly
    /// these bytes (false).
    private static func replace(_ bytes: Data, atPath path: String, writingBack: Bool) throws -> Bool {
        if FileManager.default.contents(atPath: path) == bytes { return false }
        try AtomicFile.write(to: URL(fileURLWithPath: path), syncingFile: false, syncingFolder: false) { descriptor in
            try bytes.withUnsafeBytes { try AtomicFile.writeAll(descriptor, $0, path: path) }
            if writingBack { _ = albumkit_start_writeback(descriptor) }
        }
        return true
    }

    /// Waits until every file written to `folder` is on disk, and their names in the folder.
    static func flush(_ folder: URL) throws {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw AlbumKitError.fileSystem(folder.path, "open the covers folder", errno: errno) }
        defer { close(descriptor) }
        guard albumkit_sync_file_system(descriptor) == 0, fsync(descriptor) == 0 else {
            throw AlbumKitError.fileSystem(folder.path, "flush the covers to disk", errno: errno)
        }
    }

    /// Removes the files of `keys` from the folder at `folderPath`.
    static func remove(_ keys: [CoverKey], inFolder folderPath: String) {
        for key in keys { unlink(path(of: key, inFolder: folderPath)) }
    }

    /// The path of the file of `key` in the folder at `folderPath` (a string joined, not a URL
    /// built: an import asks for one per cover).
    static func path(of key: CoverKey, inFolder folderPath: String) -> String {
        folderPath.hasSuffix("/") ? folderPath + key.fileName : folderPath + "/" + key.fileName
    }
}
