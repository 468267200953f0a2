import AlbumKit
import Foundation

/// The bytes of the file an input walker is on, read front to back: a file on disk (which
/// can seek) or an archive entry (which is a stream).
protocol AudioEntryBytes: AnyObject {
    /// Reads the file's next bytes into `buffer`; 0 at its end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(AlbumKitError) -> Int
    /// Passes over up to `count` next bytes; returns how many there were.
    func skip(_ count: Int64) throws(AlbumKitError) -> Int64
    /// Passes over the rest of the file but its last `count` bytes, and returns those (fewer
    /// when fewer are left).
    func tail(_ count: Int) throws(AlbumKitError) -> Data
    /// How far into the file reading and skipping have come: after ``tail(_:)``, its length.
    var offset: Int64 { get }
}

extension AudioEntryBytes {
    /// Appends up to `count` next bytes to `data`; fewer only at the file's end. Returns how
    /// many it appended.
    @discardableResult
    func append(upTo count: Int, to data: inout Data) throws(AlbumKitError) -> Int {
        var appended = 0
        let chunk = 64 * 1024
        while appended < count {
            let want = min(chunk, count - appended)
            let start = data.count
            data.count += want
            let got = try data.withUnsafeMutableBytes { bytes in
                Result { () throws(AlbumKitError) in try read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[start..<start + want])) }
            }.get()
            data.count = start + got
            appended += got
            if got == 0 { break }
        }
        return appended
    }

    /// ``tail(_:)`` for a stream: reads the rest through, keeping only its last `count` bytes.
    func readThroughTail(_ count: Int) throws(AlbumKitError) -> Data {
        var kept = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let got = try chunk.withUnsafeMutableBytes { bytes in Result { () throws(AlbumKitError) in try read(into: bytes) } }.get()
            if got == 0 { return kept }
            kept.append(contentsOf: chunk[0..<got])
            if kept.count > count { kept = Data(kept.suffix(count)) }
        }
    }
}
