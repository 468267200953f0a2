import AlbumKit
import Crypto
import Foundation

/// The bytes of the covers `keys` names, read from the store a batch at a time (one trip each;
/// by their places in the store when given: ``ExportContents/coverKeysInStoredOrder()``),
/// the next batch read and hashed while the caller writes this one. Batches follow the covers'
/// size: they start at `firstBatch` covers, grow up to `largestBatch` while they hold less than
/// `smallBatchBytes` (600-byte covers cost more in queries than in bytes), and shrink, down to
/// one cover, while they hold more than `largeBatchBytes`. A caller that stops early calls
/// ``stop()``, so that the store is no longer used once it returns.
struct CoverBatches {
    static let firstBatch = 32
    static let largestBatch = 512
    static let smallBatchBytes = 256 << 10
    static let largeBatchBytes = 8 << 20

    private let keys: [CoverKey]
    /// Each key's place in the store, when the store gave them.
    private let places: [Int64]?
    private let contents: ExportContents
    /// Names the export in errors.
    private let path: String
    private var size = Self.firstBatch
    /// The batch being read.
    private var next: (range: Range<Int>, task: Task<[ReadCover?], any Error>)?

    /// Starts reading the first batch of `keys` (at `places` in the store, when given) from
    /// `contents`' store; `path` names the export.
    init(_ keys: [CoverKey], at places: [Int64]? = nil, from contents: ExportContents, path: String) {
        precondition(places == nil || places?.count == keys.count, "a place for every key")
        self.keys = keys
        self.places = places
        self.contents = contents
        self.path = path
        next = read(0..<min(keys.count, size))
    }

    /// The next batch: the places in `keys` it covers and each cover read (nil for one not
    /// stored), or nil after the last. A store answering with another number of covers than it
    /// was asked for (a plugin's) is an error.
    mutating func next() async throws -> (range: Range<Int>, covers: [ReadCover?])? {
        guard let (range, task) = next else { return nil }
        let covers = try await task.value
        guard covers.count == range.count else {
            throw AlbumKitError(.libraryState, "\(path): the cover store answered \(covers.count) of \(range.count) covers asked for")
        }
        size = Self.size(after: size, holding: covers.reduce(0) { $0 + ($1?.bytes.count ?? 0) })
        next = read(range.upperBound..<min(keys.count, range.upperBound + size))
        return (range, covers)
    }

    /// Cancels the batch being read and waits for it to let go of the store.
    func stop() async {
        next?.task.cancel()
        _ = await next?.task.result
    }

    /// How many covers to read next, after a batch of `size` covers held `bytes` bytes.
    static func size(after size: Int, holding bytes: Int) -> Int {
        if bytes < smallBatchBytes { return min(size * 2, largestBatch) }
        if bytes > largeBatchBytes { return max(size / 2, 1) }
        return size
    }

    private func read(_ range: Range<Int>) -> (range: Range<Int>, task: Task<[ReadCover?], any Error>)? {
        guard !range.isEmpty else { return nil }
        let batch = Array(keys[range])
        let batchPlaces = places.map { Array($0[range]) }
        let contents = contents
        // Hashed here, on the task that read them, so that the caller's thread, which lays
        // out the archive, does not hash too (BENCHMARKS.md: the `.tar.zst` export).
        return (range, Task {
            let covers = if let batchPlaces { try await contents.coverBytes(batch, at: batchPlaces) } else { try await contents.coverBytes(batch) }
            return covers.map { $0.map(ReadCover.init) }
        })
    }
}

/// A stored cover's bytes, and the digest of those bytes (which its key names, unless they
/// changed after it was stored).
struct ReadCover: Sendable {
    let bytes: Data
    let digest: SHA256Words

    init(_ bytes: Data) {
        self.bytes = bytes
        digest = SHA256Words(SHA256.hash(data: bytes))
    }
}
