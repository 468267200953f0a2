import AlbumKit
import Foundation

#if canImport(Glibc)
import Glibc
#endif

// The walker's own `read` would hide the system call's name inside it.
private func systemRead(_ fd: CInt, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(fd, buffer, count) }

/// Walks a folder: each folder's files in name order, then its subfolders, depth first, so
/// a folder's tracks come together and a folder once left never comes back. Symbolic links
/// are never followed (a link could lead anywhere outside the input) and nothing but
/// regular files is opened: a FIFO would block, a device could be anything.
final class FolderWalker: InputWalker {
    private let root: URL
    /// Folders still to walk (relative paths), the next one last.
    private var folders: [String] = [""]
    /// The current folder's files still to hand over, the next one last.
    private var pending: [String] = []
    private var file: CInt = -1
    private var filePath = ""
    private var fileSize: Int64 = 0
    private var bytesRead: Int64 = 0

    /// A walk of the folder at `root`.
    init(root: URL) {
        self.root = root
    }

    deinit { closeFile() }

    var keepsFoldersTogether: Bool { true }
    var progress: (bytesRead: Int64, totalBytes: Int64?) { (bytesRead, nil) }

    func subject(_ path: String) -> String { root.appendingPathComponent(path).path }

    func next() throws(AlbumKitError) -> WalkedEntry? {
        closeFile()
        while true {
            if let path = pending.popLast() { return try openFile(path) }
            guard let folder = folders.popLast() else { return nil }
            try list(folder)
        }
    }

    /// Queues `folder`'s entries: files in name order, then subfolders (walked after them, in
    /// name order too).
    private func list(_ folder: String) throws(AlbumKitError) {
        let url = folder.isEmpty ? root : root.appendingPathComponent(folder)
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
        } catch {
            throw AlbumKitError(.fileSystem, "\(url.path): cannot list the folder: \(error.localizedDescription)")
        }
        var files: [String] = []
        var subfolders: [String] = []
        for name in names {
            let path = folder.isEmpty ? name : "\(folder)/\(name)"
            var info = stat()
            guard lstat(root.appendingPathComponent(path).path, &info) == 0 else {
                throw AlbumKitError(.fileSystem, "\(subject(path)): cannot look at it: \(String(cString: strerror(errno)))")
            }
            if info.st_mode & S_IFMT == S_IFDIR { subfolders.append(path) } else { files.append(path) }
        }
        // Both are stacks: reversed, they pop in name order; the files all go before any
        // subfolder is listed.
        folders.append(contentsOf: subfolders.reversed())
        pending = files.reversed()
    }

    /// Opens the regular file at `path`, or says why it is skipped.
    private func openFile(_ path: String) throws(AlbumKitError) -> WalkedEntry {
        let full = root.appendingPathComponent(path).path
        let fd = open(full, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ELOOP { return .skipped(path, reason: "a symbolic link") }
            throw AlbumKitError(.fileSystem, "\(full): cannot open: \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return .skipped(path, reason: "not a regular file")
        }
        file = fd
        filePath = path
        fileSize = Int64(info.st_size)
        return .file(path)
    }

    private func closeFile() {
        guard file >= 0 else { return }
        close(file)
        file = -1
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(AlbumKitError) -> Int {
        while true {
            let count = systemRead(file, buffer.baseAddress, buffer.count)
            if count >= 0 {
                bytesRead += Int64(count)
                return count
            }
            guard errno == EINTR else {
                throw AlbumKitError(.fileSystem, "\(subject(filePath)): cannot read: \(String(cString: strerror(errno)))")
            }
        }
    }

    func skip(_ count: Int64) throws(AlbumKitError) -> Int64 {
        let position = lseek(file, 0, SEEK_CUR)
        let skipped = max(0, min(count, fileSize - Int64(position)))
        lseek(file, off_t(skipped), SEEK_CUR)
        return skipped
    }

    var offset: Int64 { Int64(lseek(file, 0, SEEK_CUR)) }

    func tail(_ count: Int) throws(AlbumKitError) -> Data {
        let position = Int64(lseek(file, 0, SEEK_CUR))
        lseek(file, off_t(max(position, fileSize - Int64(count))), SEEK_SET)
        var data = Data()
        try append(upTo: count, to: &data)
        return data
    }
}
