import AlbumKit
import Foundation
import Hummingbird

/// A file of the server's own inside the library folder (an upload on its way to `import`,
/// a bundle on its way to the client), so nothing is written outside the library. Made with
/// a fresh name that no input chooses, readable only by its owner, removed by ``remove()``.
/// It has a name, unlike the core's unnamed scratch file, because the import and the export
/// it stands between take a path.
final class TransferFile: Sendable {
    /// Where it is.
    let url: URL
    private let handle: FileHandle

    /// A new empty file in `folder` (created when missing) whose name ends in `.<ending>`.
    init(in folder: URL, purpose: String, ending: String) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        url = folder.appendingPathComponent(".albumkit-\(purpose)-\(UUID().uuidString.lowercased()).\(ending)")
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw AlbumKitError.fileSystem(url.path, "create", errno: errno)
        }
        handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }

    /// Appends `buffer`.
    func write(_ buffer: ByteBuffer) throws {
        try handle.write(contentsOf: buffer.readableBytesView)
    }

    /// The file now at ``url`` (a writer may have renamed a new one over it) as a response
    /// body read in pieces, its name already removed: the open file stays readable until the
    /// body is sent, and nothing is left behind if the client goes away.
    func streamedBody() throws -> ResponseBody {
        let handle = try FileHandle(forReadingFrom: url)
        let size = try handle.seekToEnd()
        try handle.seek(toOffset: 0)
        remove()
        return ResponseBody(contentLength: Int(size)) { writer in
            while let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty {
                try await writer.write(ByteBuffer(bytes: chunk))
            }
            try await writer.finish(nil)
        }
    }

    /// Removes the name (safe to call more than once).
    func remove() {
        unlink(url.path)
    }
}
