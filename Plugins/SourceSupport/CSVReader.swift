import AlbumKit
import Foundation

/// Reads a CSV file (RFC 4180, as Python's `csv` module and spreadsheet programs write it)
/// record by record: fields quoted or not, quoted fields holding commas, quotes (`""`) and
/// line breaks, CRLF, LF or CR line ends, a UTF-8 byte order mark, blank lines skipped.
///
/// Written here rather than taken from yaslab/CSV.swift or SwiftCSV: SwiftCSV loads the whole
/// text, and CSV.swift neither says on which line a record starts nor bounds a record's
/// size, and both are what an untrusted export needs — an error that names the line, and a
/// 100 MB line refused after `maxRecordBytes`, not held in memory.
public struct CSVReader {
    /// One record and where it starts.
    public struct Record: Sendable {
        /// The fields, in order.
        public var fields: [String]
        /// The 1-based line of the file the record starts on.
        public var line: Int
        /// The 1-based number of the record (the header is record 1).
        public var number: Int
    }

    /// The file, as messages name it.
    public var path: String { bytes.path }
    /// The bytes consumed so far.
    public var bytesRead: Int64 { bytes.bytesRead }
    /// The file's size, when known.
    public var totalBytes: Int64? { bytes.totalBytes }

    private let bytes: ByteReader
    private let maxRecordBytes: Int
    private var records = 0
    private var field: [UInt8] = []

    /// A reader of the CSV file at `url`; a record of more than `maxRecordBytes` is an error.
    public init(_ url: URL, maxRecordBytes: Int = 1 << 20) throws(AlbumKitError) {
        bytes = try ByteReader(url)
        self.maxRecordBytes = maxRecordBytes
        _ = try bytes.consume([0xEF, 0xBB, 0xBF])  // a UTF-8 byte order mark
    }

    /// The next record that is not a blank line; nil at the end of the file.
    public mutating func next() throws(AlbumKitError) -> Record? {
        while true {
            guard try bytes.peek() != nil else { return nil }
            let line = bytes.line
            var fields: [String] = []
            var size = 0
            var ended = false
            while !ended {
                field.removeAll(keepingCapacity: true)
                ended = try readField(budget: maxRecordBytes - size, line: line)
                size += field.count + 1
                guard let text = Self.text(field) else {
                    throw AlbumKitError(.unreadableInput, "\(path) line \(line), field \(fields.count + 1): text that is not UTF-8")
                }
                fields.append(text)
            }
            if fields.count == 1 && fields[0].isEmpty { continue }
            records += 1
            return Record(fields: fields, line: line, number: records)
        }
    }

    /// `bytes` as text, nil when they are not UTF-8. ASCII bytes (most fields) are decoded
    /// directly: `String(validating:as:)` is generic, and asked for every field it looked its
    /// type's metadata up on each call, a cost the direct decoding does not have (the figures
    /// are in BENCHMARKS.md).
    private static func text(_ bytes: [UInt8]) -> String? {
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Reads one field into `field`; true when it ended its record.
    private mutating func readField(budget: Int, line: Int) throws(AlbumKitError) -> Bool {
        let limit = max(budget, 0)
        do {
            if try bytes.consume([UInt8(ascii: "\"")]) { return try readQuotedField(limit: limit, line: line) }
            let stop = try bytes.collect(into: &field, limit: limit) { $0 == UInt8(ascii: ",") || $0 == 0x0A || $0 == 0x0D }
            return try endOfField(stop)
        } catch let error where error.kind == .limitExceeded {
            throw AlbumKitError(.limitExceeded, "\(path) line \(line): a record longer than \(maxRecordBytes) bytes")
        }
    }

    private mutating func readQuotedField(limit: Int, line: Int) throws(AlbumKitError) -> Bool {
        while true {
            guard try bytes.collect(into: &field, limit: limit, until: { $0 == UInt8(ascii: "\"") }) != nil else {
                throw AlbumKitError(.unreadableInput, "\(path) line \(line): a quoted field is never closed (the file ends inside it)")
            }
            _ = try bytes.next()
            if try bytes.consume([UInt8(ascii: "\"")]) {
                field.append(UInt8(ascii: "\""))
                continue
            }
            let after = try bytes.peek()
            guard after == nil || after == UInt8(ascii: ",") || after == 0x0A || after == 0x0D else {
                throw AlbumKitError(.unreadableInput, "\(path) line \(bytes.line): text after a closing quote")
            }
            return try endOfField(after)
        }
    }

    /// Consumes the separator `stop` (a comma, a line end, or nil at the end of the file);
    /// true when it ended the record.
    private func endOfField(_ stop: UInt8?) throws(AlbumKitError) -> Bool {
        switch stop {
        case UInt8(ascii: ","):
            _ = try bytes.next()
            return false
        case 0x0D:
            _ = try bytes.next()
            if try bytes.peek() == 0x0A { _ = try bytes.next() }
            return true
        case 0x0A:
            _ = try bytes.next()
            return true
        default:
            return true
        }
    }
}
