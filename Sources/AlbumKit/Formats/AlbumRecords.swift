import Foundation

/// The albums of a list file, handed over one at a time. A JSON list is split into its
/// elements as its text is read (``JSONListSplitter``), and each element decoded when it is
/// asked for — strictly (``JSONCursor``), or with `JSONDecoder`, which accepts what the strict
/// reader refuses or names the problem — so that a long list is never held whole, as text or
/// as records. Other formats decode the list whole first.
public struct AlbumRecords {
    private enum Source {
        case decoded([AlbumRecord])
        case json(JSONListSplitter)
    }

    private let source: Source
    private var nextIndex = 0

    /// A list already decoded.
    init(decoded records: [AlbumRecord]) { source = .decoded(records) }

    /// The JSON list in `data` (its structure is checked as the albums are asked for, each
    /// element's content when it is).
    init(json data: Data) {
        var offset = 0
        self.init(jsonReading: { buffer in
            let count = min(buffer.count, data.count - offset)
            data.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: (data.startIndex + offset)..<(data.startIndex + offset + count))
            offset += count
            return count
        })
    }

    /// The JSON list whose text `read` gives a piece at a time: it fills the buffer it is
    /// handed and returns how many bytes it wrote, 0 at the end. The text is read as the
    /// albums are asked for; an error `read` throws comes out of ``next()`` as it was thrown.
    public init(jsonReading read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) {
        source = .json(JSONListSplitter(underKey: "albums", reading: read))
    }

    /// How many albums were handed over so far: all of them once ``next()`` gave nil.
    public var handedOver: Int { nextIndex }

    /// The next album, or nil after the last; an element that does not decode is an error
    /// naming its place in the list.
    public mutating func next() throws -> AlbumRecord? {
        switch source {
        case .decoded(let records):
            guard nextIndex < records.count else { return nil }
            defer { nextIndex += 1 }
            return records[nextIndex]
        case .json(let splitter):
            let index = nextIndex
            guard let record = try splitter.next({ try Self.decode($0, index: index) }) else { return nil }
            nextIndex += 1
            return record
        }
    }

    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, index: Int) throws -> AlbumRecord {
        let strict = try? {
            var cursor = JSONCursor(bytes)
            let record = try cursor.albumRecord()
            try cursor.end()
            return record
        }()
        if let strict { return strict }
        do {
            return try JSONDecoder().decode(AlbumRecord.self, from: Data(buffer: bytes))
        } catch {
            throw ListElementError(index: index, underlying: error)
        }
    }
}
