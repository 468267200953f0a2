@testable import AlbumKit
import Foundation
import Synchronization
import Testing

/// The read-ahead between a source and an import: every item comes out in order and whole, an
/// error last, and what the user sees as it comes is handed over without waiting for more.
@Suite struct ReadAheadTests {
    /// Fewer, as many and more small items than wake a waiting consumer (`wakeAt.items`), and
    /// more than twice as many, come out in order and then the end.
    @Test(arguments: [0, 1, 63, 64, 65, 129])
    func smallItemsComeOutInOrder(_ count: Int) async throws {
        let items = (0..<count).map(Self.album)
        let read = try await Self.drain(ReadAhead(Self.source(items)))
        #expect(read == items.map(Self.described))
    }

    /// A cover larger than the whole budget, between small items, is handed over whole.
    @Test func aCoverLargerThanTheBudgetComesOutWhole() async throws {
        let bytes = Data((0..<(ReadAhead.budget + 1)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let items = (0..<10).map(Self.album) + [SourceItem.cover(path: "covers/large.jpg", bytes: bytes)] + (10..<20).map(Self.album)
        let readAhead = ReadAhead(Self.source(items))
        var read: [String] = []
        while let item = try await readAhead.next() {
            if case .cover(_, let given) = item { #expect(given == bytes) }
            read.append(Self.described(item))
        }
        #expect(read == items.map(Self.described))
    }

    /// The source's error comes after the 63 items before it (one fewer than wake a consumer).
    @Test func anErrorComesAfterTheItemsBeforeIt() async throws {
        let items = (0..<63).map(Self.album)
        let readAhead = ReadAhead(Self.source(items, failingWith: SourceFailed()))
        var read: [String] = []
        await #expect(throws: SourceFailed.self) {
            while let item = try await readAhead.next() { read.append(Self.described(item)) }
        }
        #expect(read == items.map(Self.described))
    }

    /// A progress report or a warning from a source that then waits (a slow disk, a process
    /// plugin) is handed over at once to a consumer already waiting, with the album before it,
    /// not when more items or the source's end arrive. The source is held open until the
    /// consumer has them or two minutes have passed (a loaded machine running every suite at once
    /// may take seconds to schedule the consumer), so a read-ahead that holds them back
    /// fails here rather than hangs.
    @Test(arguments: [SourceItem.progress(bytesRead: 1, totalBytes: 100), .warning("cover.jpg: unreadable")])
    func whatTheUserSeesIsHandedOverAtOnce(_ shown: SourceItem) async throws {
        let (items, source) = AsyncThrowingStream<SourceItem, any Error>.makeStream()
        let readAhead = ReadAhead(items)
        let first = await withTaskGroup(of: [String]?.self) { group in
            group.addTask {
                var read: [String] = []
                while read.count < 2, let item = try? await readAhead.next() { read.append(Self.described(item)) }
                return read
            }
            group.addTask {
                // The items come once the consumer waits for them.
                try? await Task.sleep(for: .milliseconds(100))
                source.yield(Self.album(0))
                source.yield(shown)
                try? await Task.sleep(for: .seconds(120))
                return nil
            }
            let first = await group.next() ?? nil
            // Ends the source either way, so that a consumer still waiting returns.
            source.finish()
            group.cancelAll()
            return first
        }
        #expect(first == [Self.album(0), shown].map(Self.described), "the items came only with the source's end")
        readAhead.cancel()
    }

    private struct SourceFailed: Error {}

    private static func album(_ index: Int) -> SourceItem {
        .album(AlbumRecord(title: "Album \(index)", artist: "Artist"), label: "list.json #\(index + 1)")
    }

    /// `items` pulled one at a time, as a source's reading gives them, then `error` if any.
    private static func source(_ items: [SourceItem], failingWith error: SourceFailed? = nil) -> AsyncThrowingStream<SourceItem, any Error> {
        let next = Mutex(0)
        return AsyncThrowingStream {
            let index = next.withLock { index in
                defer { index += 1 }
                return index
            }
            if index < items.count { return items[index] }
            if index == items.count, let error { throw error }
            return nil
        }
    }

    private static func drain(_ readAhead: ReadAhead) async throws -> [String] {
        var read: [String] = []
        while let item = try await readAhead.next() { read.append(described(item)) }
        #expect(try await readAhead.next() == nil, "a read-ahead at its end stays there")
        return read
    }

    private static func described(_ item: SourceItem) -> String {
        switch item {
        case .album(let record, let label): "album \(record.title) \(label)"
        case .invalid(let record, let label, let reason): "invalid \(record.title) \(label) \(reason)"
        case .cover(let path, let bytes): "cover \(path) \(bytes.count)"
        case .state: "state"
        case .warning(let text): "warning \(text)"
        case .progress(let read, let total): "progress \(read) \(total.map(String.init) ?? "?")"
        }
    }
}
