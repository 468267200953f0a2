import AlbumKit
import Foundation

/// A streaming reader of the XML that iTunes libraries and Kodi `.nfo` files are written in:
/// elements, character data, the five predefined entities and character references,
/// CDATA, comments and processing instructions.
///
/// Hand-written rather than Foundation's `XMLParser` for three reasons. Safety: on Linux
/// `XMLParser` is libxml2, whose DTD loading and entity substitution have to be switched off
/// option by option, and an input is untrusted — this reader has no DTD machinery at all: a
/// `DOCTYPE`'s external identifier is never opened, a `DOCTYPE` with an internal subset
/// (where entity declarations, and so entity bombs, live) is refused, and any entity but the
/// predefined ones is an error. Memory: it holds one chunk of the file, the open elements
/// and one text value (at most `maxTextBytes`), whatever the file's size. Speed: it scans
/// bytes in runs, with no callback or `NSString` per event (BENCHMARKS.md compares it with
/// Python's expat-based `plistlib`).
///
/// Errors are ``AlbumKitError``s naming the file and the line.
public struct XMLReader {
    /// What ``next()`` met.
    public enum Token: Equatable, Sendable {
        /// An element's start tag (`<dict>`, or `<true/>`, which is followed by its end).
        case start(String)
        /// An element's end tag.
        case end(String)
        /// Character data between elements that is not only white space.
        case text
    }

    /// The file, as messages name it.
    public var path: String { bytes.path }
    /// The line the reader is on.
    public var line: Int { bytes.line }
    /// The bytes consumed so far.
    public var bytesRead: Int64 { bytes.bytesRead }
    /// The file's size, when known.
    public var totalBytes: Int64? { bytes.totalBytes }
    /// How many elements are open.
    public var depth: Int { open.count }

    private let bytes: ByteReader
    private let maxTextBytes: Int
    private let maxDepth: Int
    private var open: [String] = []
    private var selfClosed: String?
    private var rootClosed = false
    private var sawRoot = false
    private var text: [UInt8] = []

    /// A reader of the XML file at `url`.
    public init(_ url: URL, maxTextBytes: Int = 1 << 20, maxDepth: Int = 256) throws(AlbumKitError) {
        bytes = try ByteReader(url)
        self.maxTextBytes = maxTextBytes
        self.maxDepth = maxDepth
        _ = try bytes.consume([0xEF, 0xBB, 0xBF])  // a UTF-8 byte order mark
    }

    /// An error naming the file and the current line.
    public func error(_ problem: String) -> AlbumKitError {
        AlbumKitError(.unreadableInput, "\(path) line \(line): \(problem)")
    }

    /// The next start or end tag (or stray text); nil at the end of the document, which must
    /// then be complete.
    public mutating func next() throws(AlbumKitError) -> Token? {
        if let name = selfClosed {
            selfClosed = nil
            return try close(name)
        }
        while true {
            text.removeAll(keepingCapacity: true)
            guard let stop = try bytes.collect(into: &text, limit: maxTextBytes, until: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) else {
                _ = try checkText()
                guard open.isEmpty, sawRoot else { throw error(open.last.map { "the file ends inside <\($0)> (truncated?)" } ?? "no XML element found") }
                return nil
            }
            if stop == UInt8(ascii: "&") {
                try readTextRun()
                _ = try checkText()
                return .text
            }
            if try checkText() { return .text }
            _ = try bytes.next()
            if let token = try markup(collectingCDATA: false) { return token }
        }
    }

    /// The text of the element whose start tag ``next()`` just returned, up to and including
    /// its end tag; an element inside it is an error.
    public mutating func elementText() throws(AlbumKitError) -> String {
        try content(skippingElements: false)!
    }

    /// The text of the element whose start tag ``next()`` just returned, or nil — the element
    /// skipped up to and including its end tag — when it holds an element: for documents whose
    /// elements hold either (Kodi's `album.nfo`).
    public mutating func textOrSkip() throws(AlbumKitError) -> String? {
        try content(skippingElements: true)
    }

    /// The current element's text; an element inside it is skipped with the rest (nil) when
    /// `skippingElements`, else an error.
    private mutating func content(skippingElements: Bool) throws(AlbumKitError) -> String? {
        guard let name = open.last else { throw error("text was expected outside any element") }
        let depth = open.count
        if selfClosed == name {
            selfClosed = nil
            _ = try close(name)
            return ""
        }
        text.removeAll(keepingCapacity: true)
        while true {
            try readTextRun()
            guard try bytes.next() == UInt8(ascii: "<") else { throw error("the file ends inside <\(name)> (truncated?)") }
            switch try markup(collectingCDATA: true) {
            case .end: return try decodedText()
            case .start(let inner):
                guard skippingElements else { throw error("<\(name)> holds an element <\(inner)> where text was expected") }
                while open.count >= depth {
                    guard try next() != nil else { break }
                }
                return nil
            case .text, nil: continue  // a comment or processing instruction inside the text
            }
        }
    }

    /// Skips the rest of the element whose start tag ``next()`` just returned, whatever it
    /// holds, up to and including its end tag.
    public mutating func skipElement() throws(AlbumKitError) {
        let target = open.count - 1
        while open.count > target {
            guard try next() != nil else { return }
        }
    }

    // MARK: - Text

    /// Collects character data (resolving references) up to the next `<` into `text`.
    private mutating func readTextRun() throws(AlbumKitError) {
        while let stop = try bytes.collect(into: &text, limit: maxTextBytes, until: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) {
            guard stop == UInt8(ascii: "&") else { return }
            _ = try bytes.next()
            try appendReference()
        }
        throw error(open.last.map { "the file ends inside <\($0)> (truncated?)" } ?? "the file ends in text")
    }

    /// `text`, checked to be UTF-8.
    private func decodedText() throws(AlbumKitError) -> String {
        guard let string = String(validating: text, as: UTF8.self) else { throw error("text that is not UTF-8") }
        return string
    }

    /// Whether `text` is more than white space, which is allowed only inside the root element.
    private func checkText() throws(AlbumKitError) -> Bool {
        guard text.contains(where: { !Self.isSpace($0) }) else { return false }
        if open.isEmpty { throw error(sawRoot ? "content after the root element" : "not XML (text before the first element)") }
        return true
    }

    /// After `&`: a predefined entity or a character reference, appended as UTF-8.
    private mutating func appendReference() throws(AlbumKitError) {
        var name: [UInt8] = []
        guard try bytes.collect(into: &name, limit: 12, until: { $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: "<") }) == UInt8(ascii: ";") else {
            throw error("an '&' that does not start an entity or character reference")
        }
        _ = try bytes.next()
        let scalar: Unicode.Scalar?
        switch String(decoding: name, as: UTF8.self) {
        case "lt": scalar = "<"
        case "gt": scalar = ">"
        case "amp": scalar = "&"
        case "quot": scalar = "\""
        case "apos": scalar = "'"
        case let reference where reference.hasPrefix("#x"): scalar = UInt32(reference.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
        case let reference where reference.hasPrefix("#"): scalar = UInt32(reference.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
        case let other:
            throw error("unknown entity '&\(other.prefix(12));' (only XML's five are known: no DTD is read, nothing is expanded)")
        }
        guard let scalar, scalar.value != 0 else { throw error("a character reference '&\(String(decoding: name, as: UTF8.self));' to no character") }
        text.append(contentsOf: String(scalar).utf8)
    }

    // MARK: - Markup

    /// After `<`: a tag (returned), or a comment, processing instruction, DOCTYPE or CDATA
    /// section (nil; CDATA's text is appended to `text` when `collectingCDATA`).
    private mutating func markup(collectingCDATA: Bool) throws(AlbumKitError) -> Token? {
        guard let first = try bytes.peek() else { throw error("the file ends inside a tag") }
        switch first {
        case UInt8(ascii: "?"):
            try skip(past: Array("?>".utf8), what: "processing instruction")
            return nil
        case UInt8(ascii: "!"):
            _ = try bytes.next()
            if try bytes.consume(Array("--".utf8)) {
                try skip(past: Array("-->".utf8), what: "comment")
            } else if try bytes.consume(Array("[CDATA[".utf8)) {
                try cdata(collecting: collectingCDATA)
            } else if try bytes.consume(Array("DOCTYPE".utf8)) {
                try doctype()
            } else {
                throw error("unsupported markup '<!'")
            }
            return nil
        case UInt8(ascii: "/"):
            _ = try bytes.next()
            let name = try tagName()
            _ = try bytes.skip(until: { !Self.isSpace($0) })
            guard try bytes.next() == UInt8(ascii: ">") else { throw error("a malformed end tag </\(name)") }
            return try close(name)
        default:
            return try startTag()
        }
    }

    private mutating func startTag() throws(AlbumKitError) -> Token {
        let name = try tagName()
        guard !rootClosed else { throw error("content after the root element") }
        guard open.count < maxDepth else { throw error("elements nested deeper than \(maxDepth)") }
        while true {
            _ = try bytes.skip(until: { !Self.isSpace($0) })
            switch try bytes.next() {
            case UInt8(ascii: ">"):
                open.append(name)
                sawRoot = true
                return .start(name)
            case UInt8(ascii: "/"):
                guard try bytes.next() == UInt8(ascii: ">") else { throw error("a malformed tag <\(name)") }
                open.append(name)
                sawRoot = true
                selfClosed = name
                return .start(name)
            case nil:
                throw error("the file ends inside the tag <\(name)>")
            default:
                try skipAttribute(of: name)
            }
        }
    }

    /// Past one `name="value"` (its first byte already consumed); values are not kept.
    private mutating func skipAttribute(of element: String) throws(AlbumKitError) {
        guard try bytes.skip(until: { $0 == UInt8(ascii: "=") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "<") }) == UInt8(ascii: "=") else {
            throw error("a malformed attribute in <\(element)>")
        }
        _ = try bytes.next()
        _ = try bytes.skip(until: { !Self.isSpace($0) })
        guard let quote = try bytes.next(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
            throw error("an attribute value in <\(element)> without quotes")
        }
        guard try bytes.skip(until: { $0 == quote || $0 == UInt8(ascii: "<") }) == quote else {
            throw error("an unterminated attribute value in <\(element)>")
        }
        _ = try bytes.next()
    }

    private mutating func close(_ name: String) throws(AlbumKitError) -> Token {
        guard let last = open.last else { throw error("an end tag </\(name)> with no element open") }
        guard last == name else { throw error("</\(name)> closes <\(last)>") }
        open.removeLast()
        if open.isEmpty { rootClosed = true }
        return .end(name)
    }

    private mutating func tagName() throws(AlbumKitError) -> String {
        var name: [UInt8] = []
        _ = try bytes.collect(into: &name, limit: 256, until: { Self.isSpace($0) || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "<") })
        guard !name.isEmpty, let string = String(validating: name, as: UTF8.self) else { throw error("a malformed tag name") }
        return string
    }

    private func skip(past terminator: [UInt8], what: String) throws(AlbumKitError) {
        while true {
            guard try bytes.skip(until: { $0 == terminator[0] }) != nil else { throw error("the file ends inside a \(what)") }
            if try bytes.consume(terminator) { return }
            _ = try bytes.next()
        }
    }

    private mutating func cdata(collecting: Bool) throws(AlbumKitError) {
        let end = Array("]]>".utf8)
        while true {
            let stop = collecting
                ? try bytes.collect(into: &text, limit: maxTextBytes, until: { $0 == end[0] })
                : try bytes.skip(until: { $0 == end[0] })
            guard stop != nil else { throw error("the file ends inside a CDATA section") }
            if try bytes.consume(end) { return }
            let byte = try bytes.next()
            if collecting, let byte { text.append(byte) }
        }
    }

    /// `<!DOCTYPE name [external id]>`: the external identifier is skipped, never opened; an
    /// internal subset (`[…]`, where entities are declared) is refused.
    private mutating func doctype() throws(AlbumKitError) {
        guard !sawRoot else { throw error("a DOCTYPE after the root element") }
        while let byte = try bytes.next() {
            switch byte {
            case UInt8(ascii: ">"): return
            case UInt8(ascii: "["): throw error("a DOCTYPE with an internal subset (entity declarations) is not read")
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                guard try bytes.skip(until: { $0 == byte }) != nil else { break }
                _ = try bytes.next()
            default: continue
            }
        }
        throw error("the file ends inside the DOCTYPE")
    }

    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }
}
