import Foundation

/// The albums of a list file, handed over one at a time. A JSON list keeps its text and the
/// byte range of each element, and decodes an element when it is asked for — strictly
/// (``JSONCursor``), or with `JSONDecoder`, which accepts what the strict reader refuses or
/// names the problem — so that a long list never has an array of all its records beside its
/// text. Other formats decode the list whole first.
public struct AlbumRecords {
    private enum Source {
        case decoded([AlbumRecord])
        case json(Data, elements: [Range<Int>])
    }

    private let source: Source
    private var nextIndex = 0

    /// A list already decoded.
    init(decoded records: [AlbumRecord]) { source = .decoded(records) }

    /// The JSON list in `data`, split into its elements (its structure is checked here; each
    /// element's content when it is asked for).
    init(json data: Data) throws {
        source = .json(data, elements: try JSONListSplitter.elements(of: data, underKey: "albums"))
    }

    /// How many albums the list holds.
    public var count: Int {
        switch source {
        case .decoded(let records): records.count
        case .json(_, let elements): elements.count
        }
    }

    /// The next album, or nil after the last; an element that does not decode is an error
    /// naming its place in the list.
    public mutating func next() throws -> AlbumRecord? {
        guard nextIndex < count else { return nil }
        defer { nextIndex += 1 }
        switch source {
        case .decoded(let records):
            return records[nextIndex]
        case .json(let data, let elements):
            return try Self.decode(elements[nextIndex], of: data, index: nextIndex)
        }
    }

    private static func decode(_ range: Range<Int>, of data: Data, index: Int) throws -> AlbumRecord {
        let strict = try? data.withUnsafeBytes { raw in
            var cursor = JSONCursor(UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[range]))
            let record = try cursor.albumRecord()
            try cursor.end()
            return record
        }
        if let strict { return strict }
        do {
            let base = data.startIndex
            return try JSONDecoder().decode(AlbumRecord.self, from: data.subdata(in: (base + range.lowerBound)..<(base + range.upperBound)))
        } catch {
            throw ListElementError(index: index, underlying: error)
        }
    }
}
