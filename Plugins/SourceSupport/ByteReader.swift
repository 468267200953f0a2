import AlbumKit
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file read in fixed chunks, so that a parser walks a file of any size with one chunk in
/// memory. It counts the lines it passes (for messages) and the bytes it has read (for
/// progress). Not `Sendable`: one reader belongs to one parser.
public final class ByteReader {
    /// The file, as messages name it.
    public let path: String
    /// The file's size when it could be learned.
    public let totalBytes: Int64?
    /// The 1-based line the next byte is on.
    public private(set) var line = 1

    private let descriptor: Int32
    private var chunk: [UInt8]
    private var count = 0
    private var index = 0
    private var bytesBeforeChunk: Int64 = 0

    /// Opens `url` for reading; an error names it when it cannot be opened.
    public init(_ url: URL, chunkSize: Int = 256 * 1024) throws(AlbumKitError) {
        path = url.path
        descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw AlbumKitError(.fileSystem, "\(url.path): cannot be read: \(String(cString: strerror(errno)))")
        }
        var status = stat()
        totalBytes = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG ? Int64(status.st_size) : nil
        chunk = [UInt8](repeating: 0, count: chunkSize)
    }

    deinit { close(descriptor) }

    /// The bytes consumed so far.
    public var bytesRead: Int64 { bytesBeforeChunk + Int64(index) }

    /// The next byte without consuming it; nil at the end of the file.
    @inline(__always)
    public func peek() throws(AlbumKitError) -> UInt8? {
        if index == count, try !refill() { return nil }
        return chunk[index]
    }

    /// Consumes and returns the next byte; nil at the end of the file.
    @inline(__always)
    public func next() throws(AlbumKitError) -> UInt8? {
        if index == count, try !refill() { return nil }
        let byte = chunk[index]
        index += 1
        if byte == 0x0A { line += 1 }
        return byte
    }

    /// Whether the next bytes are `literal`; consumes them only when they are. `literal`
    /// must not hold a new line.
    public func consume(_ literal: [UInt8]) throws(AlbumKitError) -> Bool {
        if count - index < literal.count { try compact(keeping: literal.count) }
        guard count - index >= literal.count else { return false }
        for offset in literal.indices where chunk[index + offset] != literal[offset] { return false }
        index += literal.count
        return true
    }

    /// Consumes bytes up to the first for which `stop` holds, which it returns without
    /// consuming (nil when the file ended first).
    @inline(__always)
    public func skip(until stop: (UInt8) -> Bool) throws(AlbumKitError) -> UInt8? {
        var nothing: [UInt8] = []
        return try scan(collecting: false, into: &nothing, limit: .max, until: stop)
    }

    /// Like ``skip(until:)``, appending the bytes passed to `sink`, which may hold at most
    /// `limit` bytes in all: a longer value is an error naming the line.
    @inline(__always)
    public func collect(into sink: inout [UInt8], limit: Int, until stop: (UInt8) -> Bool) throws(AlbumKitError) -> UInt8? {
        try scan(collecting: true, into: &sink, limit: limit, until: stop)
    }

    @inline(__always)
    private func scan(
        collecting: Bool, into sink: inout [UInt8], limit: Int, until stop: (UInt8) -> Bool
    ) throws(AlbumKitError) -> UInt8? {
        while true {
            if index == count, try !refill() { return nil }
            var end = index
            var lines = 0
            chunk.withUnsafeBufferPointer { bytes in
                while end < count {
                    let byte = bytes[end]
                    if stop(byte) { break }
                    if byte == 0x0A { lines += 1 }
                    end += 1
                }
            }
            if collecting {
                guard sink.count + (end - index) <= limit else {
                    throw AlbumKitError(.limitExceeded, "\(path) line \(line): a value longer than \(limit) bytes")
                }
                sink.append(contentsOf: chunk[index..<end])
            }
            line += lines
            index = end
            if end < count { return chunk[end] }
        }
    }

    /// Reads the next chunk; false at the end of the file.
    private func refill() throws(AlbumKitError) -> Bool {
        bytesBeforeChunk += Int64(count)
        index = 0
        count = 0
        count = try readSome(into: 0)
        return count > 0
    }

    /// Moves the unread bytes to the front and reads until at least `wanted` are buffered
    /// (or the file ends), so a short literal can be compared across a chunk boundary.
    private func compact(keeping wanted: Int) throws(AlbumKitError) {
        let unread = count - index
        bytesBeforeChunk += Int64(index)
        chunk.withUnsafeMutableBufferPointer { bytes in
            for offset in 0..<unread { bytes[offset] = bytes[index + offset] }
        }
        index = 0
        count = unread
        while count < wanted {
            let read = try readSome(into: count)
            if read == 0 { break }
            count += read
        }
    }

    private func readSome(into offset: Int) throws(AlbumKitError) -> Int {
        while true {
            let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if got >= 0 { return got }
            if errno != EINTR {
                throw AlbumKitError(.fileSystem, "\(path): cannot be read: \(String(cString: strerror(errno)))")
            }
        }
    }
}
