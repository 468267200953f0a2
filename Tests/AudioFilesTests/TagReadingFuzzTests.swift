import AlbumKit
import AlbumKitTesting
import Foundation
import Testing

@testable import AudioFiles

/// Damaged tags straight into the tag reading (the bounded read and TagLib behind the shim),
/// in process: thousands of deterministic mutations of real encoded, tagged files. Each one
/// must end in tags or in an ``AlbumKitError`` — a crash would end the test run.
@Suite struct TagReadingFuzzTests {
    /// An audio file's bytes read from memory, as a walker reads an archive entry.
    final class MemoryBytes: AudioEntryBytes {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        func read(into buffer: UnsafeMutableRawBufferPointer) throws(AlbumKitError) -> Int {
            let count = min(buffer.count, bytes.count - position)
            bytes.withUnsafeBytes { source in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[position..<position + count]))
            }
            position += count
            return count
        }

        func skip(_ count: Int64) throws(AlbumKitError) -> Int64 {
            let skipped = Int(min(count, Int64(bytes.count - position)))
            position += skipped
            return Int64(skipped)
        }

        func tail(_ count: Int) throws(AlbumKitError) -> Data { try readThroughTail(count) }

        var offset: Int64 { Int64(position) }
    }

    /// A small xorshift generator, so every run tries the same mutations.
    struct Mutator {
        var state: UInt64

        mutating func next(_ bound: Int) -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(max(bound, 1)))
        }

        /// `original` with a few bytes changed, a size field pushed to an extreme, or cut short.
        mutating func mutate(_ original: [UInt8]) -> [UInt8] {
            var bytes = original
            let head = min(bytes.count, 8192)
            switch next(4) {
            case 0:
                for _ in 0...next(8) { bytes[next(head)] = UInt8(truncatingIfNeeded: next(256)) }
            case 1:
                let at = next(head - 4)
                for offset in 0..<4 { bytes[at + offset] = next(2) == 0 ? 0xFF : 0x00 }
            case 2:
                bytes = Array(bytes.prefix(next(bytes.count)))
            default:
                for _ in 0...next(64) { bytes[next(bytes.count)] ^= UInt8(truncatingIfNeeded: 1 << next(8)) }
            }
            return bytes
        }
    }

    static let formats = ["mp3", "mp3v23", "mp3v1", "flac", "ogg", "m4a", "m4afast"]

    @Test(arguments: formats)
    func mutatedFilesEndInTagsOrAnError(_ format: String) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let plan = [PlanEntry(
            path: "a.bin", format: format,
            tags: .init(album: "Album", albumartist: "Artist", artist: "A", genre: "Rock", date: "1999", mbid: "id"), cover: 1, coverBytes: 3000)]
        let written = try AudioCorpus.write(plan, in: folder.url)
        let original = [UInt8](try Data(contentsOf: written.url.appendingPathComponent("a.bin")))
        let limits = Limits(coverBytes: 100_000)
        let collector = TagBytesCollector(limit: TagBytesCollector.limit(for: limits), subject: "fuzz.\(format)")

        let intact = try TrackTags(reading: try collector.collect(from: MemoryBytes(original)), coverLimit: limits.coverBytes, subject: "intact")
        #expect(intact.album == "Album")
        // ID3v1 has no room for a picture.
        #expect(intact.cover?.count == (format == "mp3v1" ? nil : 3000))

        var mutator = Mutator(state: 0x9E37_79B9_7F4A_7C15)
        var outcomes = (read: 0, refused: 0)
        for _ in 0..<1500 {
            let bytes = mutator.mutate(original)
            do {
                _ = try TrackTags(reading: try collector.collect(from: MemoryBytes(bytes)), coverLimit: limits.coverBytes, subject: "fuzz")
                outcomes.read += 1
            } catch {
                outcomes.refused += 1
            }
        }
        // Both ends are reached: many mutations land in audio or padding, many break a tag.
        #expect(outcomes.read > 0 && outcomes.refused > 0, "\(outcomes)")
    }
}
