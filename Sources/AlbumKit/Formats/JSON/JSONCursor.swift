import Dispatch
import Foundation

/// A strict reader of JSON text held in memory, one value at a time, with no tree built.
///
/// It is stricter than `JSONDecoder`, never more lenient: UTF-8 only (no byte order mark),
/// no duplicate keys, integers only where an integer is read, at most ``maxDepth`` levels of
/// nesting, and anything it is unsure of is a ``Refusal``. Callers that must accept exactly
/// what `JSONDecoder` accepts fall back to it on a refusal, and so report its errors.
struct JSONCursor {
    /// The text is not what this reader accepts; `description` says what and where.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// The deepest nesting read: well inside the 512 levels `JSONDecoder` allows, so that the
    /// two never disagree at the edge (no library value nests more than a few levels).
    static let maxDepth = 256

    private let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next byte to read.
    private(set) var index = 0
    private var depth = 0
    /// The file the bytes are, when its pages may be handed back as a long array is read.
    private let text: FileText?

    /// A cursor at the start of `bytes`.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        text = nil
    }

    /// A cursor at the start of a file's text, which hands back the pages of a long array's
    /// text as it reads past them (``elements(splitting:)``): only the text's own reader can
    /// then read it again, after ``FileText/restore()``.
    init(_ text: FileText) {
        bytes = text.bytes
        self.text = text
    }

    // MARK: - Punctuation

    /// The next byte that is not white space, without taking it.
    mutating func peek() -> UInt8? {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return bytes[index]
            }
        }
        return nil
    }

    /// Takes `byte` when it comes next (after white space).
    mutating func take(_ byte: UInt8) -> Bool {
        guard peek() == byte else { return false }
        index += 1
        return true
    }

    /// Takes `byte`, which must come next.
    mutating func expect(_ byte: UInt8) throws(Refusal) {
        guard take(byte) else { throw refusal("expected '\(Character(Unicode.Scalar(byte)))'") }
    }

    /// Checks that nothing but white space is left.
    mutating func end() throws(Refusal) {
        guard peek() == nil else { throw refusal("unexpected bytes after the value") }
    }

    /// A copy of the bytes in `range` (offsets as ``index`` counts them).
    func data(in range: Range<Int>) -> Data { Data(UnsafeBufferPointer(rebasing: bytes[range])) }

    /// A refusal naming `what` and the byte offset it was met at.
    func refusal(_ what: String) -> Refusal { Refusal(description: "\(what) at byte \(index)") }

    // MARK: - Containers

    /// Reads an object, calling `member` with each key's raw bytes and the cursor at the value
    /// (which `member` must read). A key holding an escape is refused (no library key has one).
    mutating func members(_ member: (inout JSONCursor, JSONKey) throws -> Void) throws {
        try object(key: { cursor throws(Refusal) in try cursor.rawKey() }, member)
    }

    /// Reads an object whose keys are data (any string), calling `member` with each.
    mutating func stringKeyedMembers(_ member: (inout JSONCursor, String) throws -> Void) throws {
        try object(key: { cursor throws(Refusal) in try cursor.string() }, member)
    }

    private mutating func object<Key>(
        key readKey: (inout JSONCursor) throws(Refusal) -> Key, _ member: (inout JSONCursor, Key) throws -> Void
    ) throws {
        try open(UInt8(ascii: "{"))
        if !take(UInt8(ascii: "}")) {
            repeat {
                let key = try readKey(&self)
                try expect(UInt8(ascii: ":"))
                try member(&self, key)
            } while take(UInt8(ascii: ","))
            try expect(UInt8(ascii: "}"))
        }
        depth -= 1
    }

    /// Reads an array, calling `element` with the cursor at each element (which it must read).
    mutating func elements(_ element: (inout JSONCursor) throws -> Void) throws {
        try open(UInt8(ascii: "["))
        if !take(UInt8(ascii: "]")) {
            repeat { try element(&self) } while take(UInt8(ascii: ","))
            try expect(UInt8(ascii: "]"))
        }
        depth -= 1
    }

    private mutating func open(_ bracket: UInt8) throws(Refusal) {
        try expect(bracket)
        depth += 1
        guard depth <= Self.maxDepth else { throw refusal("nested deeper than \(Self.maxDepth) levels") }
    }

    // MARK: - Scalars

    /// Takes `null` when it comes next.
    mutating func takeNull() -> Bool {
        guard peek() == UInt8(ascii: "n"), index + 4 <= bytes.count,
            bytes[index + 1] == UInt8(ascii: "u"), bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "l")
        else { return false }
        index += 4
        return true
    }

    /// Whether a string comes next.
    mutating func atString() -> Bool { peek() == UInt8(ascii: "\"") }

    /// Reads a string: valid UTF-8, no raw control characters, escapes decoded (a lone
    /// surrogate is refused).
    mutating func string() throws(Refusal) -> String {
        guard atString() else { throw refusal("expected a string") }
        index += 1
        let start = index
        let ascii = try scanPlain()
        if bytes[index] == UInt8(ascii: "\\") { return try escapedString(from: start) }
        defer { index += 1 }
        return try text(UnsafeBufferPointer(rebasing: bytes[start..<index]), ascii: ascii)
    }

    /// Reads an integer (`-?digits`, at most 18 of them); a fraction or exponent is refused.
    mutating func integer() throws(Refusal) -> Int64 {
        _ = peek()
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let start = index
        var value: Int64 = 0
        while index < bytes.count, bytes[index] &- 0x30 < 10 {
            value = value &* 10 &+ Int64(bytes[index] &- 0x30)
            index += 1
        }
        let digits = index - start
        guard digits > 0, digits <= 18, digits == 1 || bytes[start] != UInt8(ascii: "0") else { throw refusal("expected an integer") }
        if index < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) {
            throw refusal("expected an integer, not a fraction")
        }
        return negative ? -value : value
    }

    /// Reads a number and returns its text as written.
    mutating func numberLexeme() throws(Refusal) -> Substring {
        _ = peek()
        let start = index
        guard index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] &- 0x30 < 10 else { throw refusal("expected a number") }
        try number()
        return Substring(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    /// Reads a number as a `Double` (as `JSONDecoder` decodes one).
    mutating func double() throws(Refusal) -> Double {
        guard let value = Double(try numberLexeme()), value.isFinite else { throw refusal("a number out of range") }
        return value
    }

    /// Takes `true` or `false` when one comes next.
    mutating func takeBoolean() -> Bool? {
        switch peek() {
        case UInt8(ascii: "t"): (try? literal("true")) != nil ? true : nil
        case UInt8(ascii: "f"): (try? literal("false")) != nil ? false : nil
        default: nil
        }
    }

    /// Reads and drops any value, checking it as strictly as the rest.
    mutating func skipValue() throws {
        guard let next = peek() else { throw refusal("expected a value") }
        switch next {
        case UInt8(ascii: "{"): try members { cursor, _ in try cursor.skipValue() }
        case UInt8(ascii: "["): try elements { try $0.skipValue() }
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw refusal("expected a value")
        }
    }

    /// Steps over the value that comes next finding only where it ends (``valueEnd(in:from:)``),
    /// for a value the reader leaves unread (a field a listing does not look at).
    mutating func passValue() throws(Refusal) {
        guard peek() != nil, let end = Self.valueEnd(in: bytes, from: index) else { throw refusal("expected a value") }
        index = end
    }

    /// Where the value starting at `start` of `bytes` ends, found by its strings and brackets
    /// alone (nothing else is checked; no white space is stepped over); nil when it does not.
    static func valueEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return stringEnd(in: bytes, from: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var at = start
            while at < bytes.count {
                switch bytes[at] {
                case UInt8(ascii: "\""):
                    guard let end = stringEnd(in: bytes, from: at) else { return nil }
                    at = end
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return at + 1 }
                default:
                    break
                }
                at += 1
            }
            return nil
        default:
            var at = start
            while at < bytes.count, bytes[at] != UInt8(ascii: ","), bytes[at] != UInt8(ascii: "}"), bytes[at] != UInt8(ascii: "]") { at += 1 }
            return at
        }
    }

    /// Where the string whose opening quote is at `start` ends (after its closing quote): at
    /// the next quote not escaped, found by `memchr` (a quote after an odd run of backslashes
    /// is escaped).
    static func stringEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var at = start + 1
        while at < bytes.count {
            guard let found = memchr(base + at, Int32(UInt8(ascii: "\"")), bytes.count - at) else { return nil }
            let quote = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            var before = quote
            while before > at, bytes[before - 1] == UInt8(ascii: "\\") { before -= 1 }
            if (quote - before) % 2 == 0 { return quote + 1 }
            at = quote + 1
        }
        return nil
    }

    private mutating func literal(_ word: StaticString) throws(Refusal) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count,
            (0..<count).allSatisfy({ bytes[index + $0] == word.utf8Start[$0] })
        else { throw refusal("expected \(word)") }
        index += count
    }

    /// Any JSON number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func number() throws(Refusal) {
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let whole = digits()
        guard whole > 0, whole == 1 || bytes[index - whole] != UInt8(ascii: "0") else { throw refusal("a malformed number") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw refusal("a malformed number") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw refusal("a malformed number") }
        }
    }

    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, bytes[index] &- 0x30 < 10 { index += 1 }
        return index - start
    }

    // MARK: - Strings

    /// A key's bytes, which hold no escape.
    private mutating func rawKey() throws(Refusal) -> JSONKey {
        guard atString() else { throw refusal("expected a key") }
        index += 1
        let start = index
        let ascii = try scanPlain()
        guard bytes[index] == UInt8(ascii: "\"") else { throw refusal("a key with an escape") }
        let key = UnsafeBufferPointer(rebasing: bytes[start..<index])
        // A key nothing reads must still be valid UTF-8, as the decoder demands.
        if !ascii, String(validating: key, as: UTF8.self) == nil { throw refusal("a key that is not valid UTF-8") }
        index += 1
        return JSONKey(bytes: key)
    }

    /// Moves over a string's plain bytes, from just after its opening quote to its closing
    /// quote or first escape (left at `index`); returns whether they were all ASCII.
    private mutating func scanPlain() throws(Refusal) -> Bool {
        var seen: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return seen < 0x80 }
            if byte < 0x20 { throw refusal("a control character inside a string") }
            seen |= byte
            index += 1
        }
        throw refusal("a string that does not end")
    }

    private func text(_ utf8: UnsafeBufferPointer<UInt8>, ascii: Bool) throws(Refusal) -> String {
        if ascii { return String(decoding: utf8, as: UTF8.self) }
        guard let text = String(validating: utf8, as: UTF8.self) else { throw refusal("a string that is not valid UTF-8") }
        return text
    }

    /// The rest of a string that holds an escape; `start` is just after its opening quote.
    private mutating func escapedString(from start: Int) throws(Refusal) -> String {
        var decoded = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return try decoded.withUnsafeBufferPointer { buffer throws(Refusal) in try text(buffer, ascii: false) }
            case UInt8(ascii: "\\"):
                try escape(into: &decoded)
            case ..<0x20:
                index -= 1
                throw refusal("a control character inside a string")
            default:
                decoded.append(byte)
            }
        }
        throw refusal("a string that does not end")
    }

    private mutating func escape(into decoded: inout [UInt8]) throws(Refusal) {
        guard index < bytes.count else { throw refusal("a string that does not end") }
        let letter = bytes[index]
        index += 1
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(letter)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = UInt32(try hexQuad())
            if (0xD800..<0xDC00).contains(scalar) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw refusal("a lone surrogate escape")
                }
                index += 2
                let low = UInt32(try hexQuad())
                guard (0xDC00..<0xE000).contains(low) else { throw refusal("a lone surrogate escape") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw refusal("a lone surrogate escape") }
            decoded.append(contentsOf: UTF8.encode(unicode)!)
        default:
            throw refusal("an unknown escape")
        }
    }

    private mutating func hexQuad() throws(Refusal) -> UInt16 {
        guard index + 4 <= bytes.count else { throw refusal("a short \\u escape") }
        var value: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8 = switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - 0x30
            case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - 0x57
            case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - 0x37
            default: throw refusal("a malformed \\u escape")
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }
}

/// An object key as it stands in the text (no escapes), compared without making a `String`.
struct JSONKey {
    let bytes: UnsafeBufferPointer<UInt8>

    /// Whether the key is `name`.
    func `is`(_ name: StaticString) -> Bool {
        name.utf8CodeUnitCount == bytes.count && bytes.elementsEqual(UnsafeBufferPointer(start: name.utf8Start, count: bytes.count))
    }

    /// Whether the key is `name`. The lengths first: a reader looking a key up among the
    /// album's fields (``AlbumField/all``) tells most of them apart without a byte compared.
    func `is`(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard utf8.count == bytes.count else { return false }
        guard !bytes.isEmpty else { return true }
        return utf8.withContiguousStorageIfAvailable { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 } ?? utf8.elementsEqual(bytes)
    }

    /// The key as text.
    var text: String { String(decoding: bytes, as: UTF8.self) }
}

// MARK: - Long arrays on two cores

extension JSONCursor {
    /// Below this many bytes left, an array is read on one core.
    static let splitBytes = 1 << 20

    /// How much of a file's text an array's reader passes before it hands those pages back.
    static let handBackBytes = 1 << 20

    /// The elements of the array that comes next, each read by `read`: on two cores when the
    /// array is long (a large library's album list).
    ///
    /// The second core starts at an element that begins a line after the middle of the text
    /// left (this program writes one element a line, and a raw line break is never inside a
    /// string). Its work is kept only when the first core, reading in order from the start,
    /// lands exactly on that element; otherwise the first core reads on alone. So the elements,
    /// and the first refusal, are those of reading in order — except on a file's text
    /// (``init(_:)-(FileText)``): there each core hands back the pages it has read past, a
    /// megabyte at a time, and a first core reading on alone into pages the second handed back
    /// is refused (they read as zeros). The text's owner restores them before reading it again.
    mutating func elements<Element: Sendable>(splitting read: @escaping @Sendable (inout JSONCursor) throws -> Element) throws -> [Element] {
        try open(UInt8(ascii: "["))
        var elements: [Element] = []
        if !take(UInt8(ascii: "]")) {
            if let start = secondHalf(), ProcessInfo.processInfo.activeProcessorCount > 1 {
                elements = try readSplit(at: start, read)
            } else {
                var whole = Half<Element>(cursor: self)
                whole.read(read, stoppingAt: nil)
                if let failure = whole.failure { throw failure }
                (index, elements) = (whole.cursor.index, whole.elements)
            }
        }
        depth -= 1
        return elements
    }

    /// A cursor like this one at `index` (the second half of a split read).
    private func moved(to index: Int) -> JSONCursor {
        var cursor = self
        cursor.index = index
        return cursor
    }

    /// Reads the elements from here (the first) and from `start` side by side; leaves the
    /// cursor after the closing bracket.
    private mutating func readSplit<Element: Sendable>(at start: Int, _ read: @escaping @Sendable (inout JSONCursor) throws -> Element) throws -> [Element] {
        var first = Half<Element>(cursor: self)
        var second = Half<Element>(cursor: moved(to: start))
        withUnsafeMutablePointer(to: &first) { first in
            withUnsafeMutablePointer(to: &second) { second in
                // Each half writes its own and no other.
                nonisolated(unsafe) let halves = (first, second)
                DispatchQueue.concurrentPerform(iterations: 2) { part in
                    if part == 0 { halves.0.pointee.read(read, stoppingAt: start) } else { halves.1.pointee.read(read, stoppingAt: nil) }
                }
            }
        }
        if let failure = first.failure { throw failure }
        if first.stopped {
            // In order, the first half would have gone on from exactly where the second began.
            if let failure = second.failure { throw failure }
            index = second.cursor.index
            // Joined in place: the first half made room for both.
            var elements = first.elements
            first.elements = []
            elements.append(contentsOf: second.elements)
            return elements
        }
        // The second half began inside an element: its work is not the list's.
        index = first.cursor.index
        return first.elements
    }

    /// The start of an element that begins a line (`,` line break `{`) within 64 KiB after the
    /// middle of the text left, when enough is left to split.
    private func secondHalf() -> Int? {
        let left = bytes.count - index
        guard left >= Self.splitBytes else { return nil }
        let middle = index + left / 2
        for at in middle..<min(bytes.count - 1, middle + (64 << 10)) where bytes[at] == 0x0A {
            if bytes[at - 1] == UInt8(ascii: ","), bytes[at + 1] == UInt8(ascii: "{") { return at + 1 }
        }
        return nil
    }

    /// One side of a split read: its cursor, the elements it read, and how it ended.
    private struct Half<Element> {
        var cursor: JSONCursor
        var elements: [Element] = []
        var failure: (any Error)?
        /// Whether it reached the element where the other half began.
        var stopped = false

        /// Reads elements until the array's closing bracket, or (the first half) until the next
        /// element starts at `stop`.
        mutating func read(_ read: (inout JSONCursor) throws -> Element, stoppingAt stop: Int?) {
            let begin = cursor.index
            var handedBack = begin
            do {
                while true {
                    if let stop, elements.count == elements.capacity, cursor.index > begin {
                        makeRoomForBothHalves(begin: begin, stop: stop)
                    }
                    elements.append(try read(&cursor))
                    if let text = cursor.text, cursor.index - handedBack >= JSONCursor.handBackBytes {
                        text.handBack(handedBack..<cursor.index)
                        handedBack = cursor.index
                    }
                    guard cursor.take(UInt8(ascii: ",")) else { break }
                    if let stop, cursor.peek() != nil, cursor.index == stop {
                        stopped = true
                        return
                    }
                }
                try cursor.expect(UInt8(ascii: "]"))
            } catch {
                failure = error
            }
        }

        /// Grows the first half's array to what both halves will hold, judged from the text
        /// read so far, so that the second's elements join it without a copy of the whole. A
        /// misleading start (small elements first) reserves too much, but no more than the
        /// smallest element's text allows (an album's is at least 26 bytes: room for a list of
        /// albums stays within five times its text), and room never filled is never touched: it
        /// costs address space, not memory.
        private mutating func makeRoomForBothHalves(begin: Int, stop: Int) {
            let estimate = elements.count * 2 * (stop - begin) / (cursor.index - begin)
            elements.reserveCapacity(max(elements.count * 2, estimate + estimate / 32))
        }
    }
}
