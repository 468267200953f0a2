import Foundation

/// A serialisation that file storage and album-list sources share, so JSON and property
/// lists are one generic code path (`FileStorage<JSONFormat>`, `AlbumListSource<PropertyListFormat>`).
public protocol LibraryFileFormat: Sendable {
    /// The adapter name (`json`, `plist`).
    var name: String { get }
    /// The file name a library of this format gets by default (`library.json`).
    var defaultFileName: String { get }
    /// The file name endings this format reads (`json`).
    var fileExtensions: [String] { get }
    /// Whether `prefix` (the first bytes of a file) looks like this format.
    func looksLikeFormat(_ prefix: Data) -> Bool
    /// Encodes `value`.
    func encode<T: Encodable>(_ value: T) throws -> Data
    /// Decodes a `T` from `data`.
    func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T
    /// The album list in `data` — an array at the root, or under `albums` of a root object —
    /// handed over an album at a time, decoded as it is asked for where the format allows, so
    /// a long list never becomes one tree, nor an array of records beside its text.
    func albumRecords(in data: Data) throws -> AlbumRecords
    /// The album list whose text `read` gives a piece at a time (it fills the buffer it is
    /// handed and returns how many bytes it wrote, 0 at the end), as ``albumRecords(in:)``
    /// reads it: where the format allows, read as the albums are asked for, so a long list is
    /// never held whole. An error `read` throws comes out as it was thrown.
    func albumRecords(reading read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) throws -> AlbumRecords
}

extension LibraryFileFormat {
    /// The whole document decoded at once: the array at the root, else the one under `albums`.
    public func albumRecords(in data: Data) throws -> AlbumRecords {
        do {
            return AlbumRecords(decoded: try decode([AlbumRecord].self, from: data))
        } catch DecodingError.typeMismatch(let found, let context) where context.codingPath.isEmpty && found is [Any].Type {
            return AlbumRecords(decoded: try decode(AlbumsUnderKey.self, from: data).albums)
        }
    }

    /// The text `read` gives read whole, then ``albumRecords(in:)``.
    public func albumRecords(reading read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) throws -> AlbumRecords {
        var data = Data()
        let piece = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { piece.deallocate() }
        while case let count = try read(piece), count > 0 {
            data.append(piece.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)
        }
        return try albumRecords(in: data)
    }

    /// The whole album list in `data` as an array (``albumRecords(in:)`` read to its end).
    public func decodeAlbums(from data: Data) throws -> [AlbumRecord] {
        var records = try albumRecords(in: data)
        var all: [AlbumRecord] = []
        while let record = try records.next() { all.append(record) }
        return all
    }
}

/// `{"albums": […]}`.
private struct AlbumsUnderKey: Decodable {
    var albums: [AlbumRecord]
}

/// JSON, UTF-8.
public struct JSONFormat: LibraryFileFormat {
    public init() {}
    public var name: String { "json" }
    public var defaultFileName: String { "library.json" }
    public var fileExtensions: [String] { ["json"] }

    public func looksLikeFormat(_ prefix: Data) -> Bool {
        let first = prefix.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }.first
        return first == UInt8(ascii: "[") || first == UInt8(ascii: "{")
    }

    public func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .prettyPrinted, .sortedKeys]
        return try encoder.encode(value)
    }

    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try JSONDecoder().decode(type, from: data)
    }

    /// The list split into its elements as it is read (``JSONListSplitter``), each read
    /// strictly straight from the text (``JSONCursor``) when it is asked for; what that
    /// refuses, the decoder accepts or names by element and problem (``AlbumRecords``).
    public func albumRecords(in data: Data) throws -> AlbumRecords { AlbumRecords(json: data) }

    /// As ``albumRecords(in:)``, the text read a piece at a time as the albums are asked for.
    public func albumRecords(reading read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) throws -> AlbumRecords {
        AlbumRecords(jsonReading: read)
    }
}

/// Property lists: XML or binary on writing, either on reading.
public struct PropertyListFormat: LibraryFileFormat {
    /// Whether ``encode(_:)`` writes the binary form.
    public var binary: Bool

    public init(binary: Bool = false) { self.binary = binary }
    public var name: String { "plist" }
    public var defaultFileName: String { "library.plist" }
    public var fileExtensions: [String] { ["plist"] }

    public func looksLikeFormat(_ prefix: Data) -> Bool {
        prefix.starts(with: Array("bplist".utf8)) || prefix.starts(with: Array("<?xml".utf8))
            || prefix.starts(with: Array("<plist".utf8)) || prefix.starts(with: [0xEF, 0xBB, 0xBF, 0x3C])
    }

    public func encode<T: Encodable>(_ value: T) throws -> Data {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = binary ? .binary : .xml
        encoder.userInfo[.omitsNulls] = true
        return try encoder.encode(value)
    }

    /// Decodes either form. An XML property list must be UTF-8 and nest at most
    /// `JSONCursor.maxDepth` levels: Foundation's XML reader traps (a crash, not an error) on
    /// bytes that are not UTF-8, inside an `<integer>` for one, and overflows the stack on deep
    /// nesting.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        if !data.starts(with: Array("bplist".utf8)) {
            if String(data: data, encoding: .utf8) == nil {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "the XML property list is not valid UTF-8"))
            }
            if XMLNesting.exceeds(JSONCursor.maxDepth, in: data) {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "the XML property list nests deeper than \(JSONCursor.maxDepth) levels"))
            }
        }
        return try PropertyListDecoder().decode(type, from: data)
    }
}

extension CodingUserInfoKey {
    /// Set by formats that cannot store null (property lists): optional values are left out.
    public static let omitsNulls = CodingUserInfoKey(rawValue: "albumkit.omitsNulls")!
}
