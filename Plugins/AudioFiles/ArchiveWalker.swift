import AlbumKit
import AlbumKitBundle
import Foundation

/// Walks an archive as a stream through AlbumKitBundle's ``ArchiveEntryReader``, which
/// refuses hostile entries (links, devices, `..`, duplicates) and counts
/// `limits.archiveBytes`. Nothing is unpacked: skipping means reading past.
final class ArchiveWalker: InputWalker {
    private let reader: ArchiveEntryReader
    private var discard = [UInt8](repeating: 0, count: 64 * 1024)
    /// How many bytes of the current entry have been read or skipped.
    private(set) var offset: Int64 = 0

    /// Opens the archive at `file`.
    init(file: URL, limits: Limits) throws(AlbumKitError) {
        reader = try ArchiveEntryReader(file: file, limits: limits)
    }

    var keepsFoldersTogether: Bool { false }
    var progress: (bytesRead: Int64, totalBytes: Int64?) { (reader.storedBytesRead, reader.storedSize) }

    func subject(_ path: String) -> String { "\(reader.input) entry \(path)" }

    func next() throws(AlbumKitError) -> WalkedEntry? {
        offset = 0
        while let entry = try reader.next() {
            if entry.kind == .file { return .file(entry.path) }
        }
        return nil
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(AlbumKitError) -> Int {
        let count = try reader.read(into: buffer)
        offset += Int64(count)
        return count
    }

    func skip(_ count: Int64) throws(AlbumKitError) -> Int64 {
        var skipped: Int64 = 0
        while skipped < count {
            let want = Int(min(Int64(discard.count), count - skipped))
            let got = try discard.withUnsafeMutableBytes { bytes in
                Result { () throws(AlbumKitError) in try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[0..<want])) }
            }.get()
            if got == 0 { break }
            skipped += Int64(got)
        }
        offset += skipped
        return skipped
    }

    func tail(_ count: Int) throws(AlbumKitError) -> Data {
        try readThroughTail(count)
    }
}
