import Foundation

/// Finds the elements of a JSON list — the array at the root, or under one key of a root
/// object — in text read a piece at a time, and hands each one over as it completes. It holds
/// the element being read and one piece of the text, never the document: an album list of
/// 100 000 collectors' albums is 196 MB of text (BENCHMARKS.md), and each element is decoded
/// on its own, so a long list never becomes one tree.
///
/// It checks structure only as far as finding the elements needs (strings, brackets, commas,
/// nothing after the root); the strict check is the decoder's, element by element. An element
/// is handed over once the `,` or `]` after it is read, so a list that breaks right after an
/// element is named as broken rather than the element. Depth is a counter, not recursion, so
/// deep nesting cannot exhaust the stack; the scan's state survives from one piece to the next.
final class JSONListSplitter {
    /// The structure is broken.
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    /// What the text's reader does: fills the buffer it is given with the next bytes and
    /// returns how many, 0 at the end.
    typealias Read = (UnsafeMutableRawBufferPointer) throws -> Int

    /// Where the scan is, outside a value.
    private enum State {
        case start, listOpen, listNext, listAfter, objectOpen, objectKey, colon, memberValue, objectAfter, end
    }

    /// The value being scanned, and how far.
    private enum Value {
        case string(escaped: Bool)
        case container(depth: Int, inString: Bool, escaped: Bool)
        case scalar
    }

    /// What the value being scanned is to the list.
    private enum Role { case element, member, key }

    /// Room asked of the reader at least, and the buffer's first size.
    private static let pieceSize = 64 * 1024

    private let read: Read
    private let key: [UInt8]
    private var storage: UnsafeMutableRawBufferPointer
    /// Bytes of `storage` that hold text.
    private var filled = 0
    /// The next byte to scan, in `storage`.
    private var position = 0
    /// Where `storage` starts in the text.
    private var base = 0
    /// The reader said the text ended.
    private var ended = false
    private var state = State.start
    private var value: (Value, Role)?
    /// The key just read (its raw bytes, up to one more than the wanted key's).
    private var keyBytes: [UInt8] = []
    /// The list sits under the key of a root object (else it is the root).
    private var listInObject = false
    private var found = false
    /// The element being read or waiting to be handed over: where it starts and ends in `storage`.
    private var element: (start: Int, end: Int)?
    /// The last element handed over, whose bytes the caller may still be reading.
    private var handedOver = false

    /// A splitter of the text `read` gives, finding the list at the root or under `key`.
    init(underKey key: String, reading read: @escaping Read) {
        self.read = read
        self.key = Array(key.utf8)
        storage = .allocate(byteCount: Self.pieceSize, alignment: 16)
    }

    deinit { storage.deallocate() }

    /// Calls `body` with the next element's bytes (valid only inside it); nil after the last,
    /// once the text has been read to its end and found whole. Errors of the reader come out as
    /// they were thrown; a broken structure is ``Malformed``.
    func next<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) throws -> T? {
        if handedOver {
            handedOver = false
            element = nil
        }
        guard let range = try nextElement() else { return nil }
        handedOver = true
        return try body(UnsafeBufferPointer(rebasing: storage.bindMemory(to: UInt8.self)[range]))
    }

    private func nextElement() throws -> Range<Int>? {
        while true {
            if position == filled {
                if ended { return try atEnd() }
                try refill()
                continue
            }
            if value != nil {
                scanValue()
                continue
            }
            let byte = storage[position]
            if Self.isSpace(byte) {
                position += 1
                continue
            }
            switch state {
            case .start:
                if base + position == 0, byte == 0xEF {
                    guard try startsWithByteOrderMark() else { throw expectedList() }
                    continue
                }
                position += 1
                switch byte {
                case UInt8(ascii: "["): state = .listOpen
                case UInt8(ascii: "{"): state = .objectOpen
                default: throw expectedList()
                }
            case .listOpen where byte == UInt8(ascii: "]"):
                position += 1
                closeList()
            case .listOpen, .listNext:
                try begin(.element, at: byte)
            case .listAfter:
                guard byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") else { throw unexpected("',' or ']'") }
                position += 1
                if byte == UInt8(ascii: ",") { state = .listNext } else { closeList() }
                return element.map { $0.start..<$0.end }
            case .objectOpen where byte == UInt8(ascii: "}"):
                position += 1
                try closeObject()
            case .objectOpen, .objectKey:
                guard byte == UInt8(ascii: "\"") else { throw malformed("expected a key at byte \(base + position)") }
                try begin(.key, at: byte)
            case .colon:
                guard byte == UInt8(ascii: ":") else { throw malformed("expected ':' at byte \(base + position)") }
                position += 1
                state = .memberValue
            case .memberValue:
                if wantsList {
                    // The first list under the key counts, as `JSONDecoder` takes the first.
                    guard byte == UInt8(ascii: "[") else { throw notAList() }
                    position += 1
                    listInObject = true
                    state = .listOpen
                } else {
                    try begin(.member, at: byte)
                }
            case .objectAfter:
                guard byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") else { throw unexpected("',' or '}'") }
                position += 1
                if byte == UInt8(ascii: ",") { state = .objectKey } else { try closeObject() }
            case .end:
                throw malformed("unexpected bytes after the list at byte \(base + position)")
            }
        }
    }

    /// The text ended: fine after the root, else says where it broke off.
    private func atEnd() throws -> Range<Int>? {
        if let (value, role) = value {
            switch value {
            case .string, .container(_, inString: true, _): throw malformed("the input ends inside a string")
            case .container: throw malformed("the input ends inside a list or object")
            case .scalar:
                self.value = nil
                completed(role, at: position)
            }
            return try atEnd()
        }
        switch state {
        case .end: return nil
        case .start: throw malformed("the input is empty")
        case .listOpen, .listNext: throw malformed("expected a value at byte \(base + position)")
        case .objectOpen, .objectKey: throw malformed("expected a key at byte \(base + position)")
        case .colon: throw malformed("expected ':' at byte \(base + position)")
        case .memberValue: throw wantsList ? notAList() : malformed("expected a value at byte \(base + position)")
        case .listAfter, .objectAfter: throw malformed("the input ends inside a list or object")
        }
    }

    /// Starts scanning a value whose first byte, `byte`, is at `position`.
    private func begin(_ role: Role, at byte: UInt8) throws {
        switch byte {
        case UInt8(ascii: "\""):
            value = (.string(escaped: false), role)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            value = (.container(depth: 1, inString: false, escaped: false), role)
        default:
            guard !Self.endsScalar(byte) else { throw malformed("expected a value at byte \(base + position)") }
            value = (.scalar, role)
        }
        if role == .element { element = (position, position) }
        if role == .key { keyBytes.removeAll(keepingCapacity: true) }
        // A scalar's first byte is part of it; a string's or container's opening is stepped over.
        if case (.scalar, _)? = value { return }
        position += 1
    }

    /// Scans the value in progress as far as the bytes read go. (Its loops run on locals: the
    /// class's own properties would be checked for exclusive access at every byte.)
    private func scanValue() {
        guard let (current, role) = value else { return }
        let bytes = UnsafeBufferPointer(rebasing: storage.bindMemory(to: UInt8.self)[..<filled])
        var at = position
        defer { position = at }
        switch current {
        case .string(var escaped):
            let start = at
            let closed = Self.skipString(bytes, &at, escaped: &escaped)
            if role == .key {
                let end = closed ? at - 1 : at
                let room = key.count + 1 - keyBytes.count
                if room > 0 { keyBytes.append(contentsOf: bytes[start..<min(end, start + room)]) }
            }
            value = closed ? nil : (.string(escaped: escaped), role)
        case .container(var depth, var inString, var escaped):
            scan: while at < bytes.count {
                if inString {
                    inString = !Self.skipString(bytes, &at, escaped: &escaped)
                    continue
                }
                let byte = bytes[at]
                at += 1
                switch byte {
                case UInt8(ascii: "\""):
                    inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { break scan }
                default:
                    break
                }
            }
            value = depth == 0 ? nil : (.container(depth: depth, inString: inString, escaped: escaped), role)
        case .scalar:
            while at < bytes.count, !Self.endsScalar(bytes[at]) { at += 1 }
            if at == bytes.count { return }
            value = nil
        }
        if value == nil { completed(role, at: at) }
    }

    /// Moves `at` past the rest of a string, its closing quote included, or to the end of
    /// `bytes`; returns whether the string closed (`escaped`: a backslash came last).
    private static func skipString(_ bytes: UnsafeBufferPointer<UInt8>, _ at: inout Int, escaped: inout Bool) -> Bool {
        while at < bytes.count {
            let byte = bytes[at]
            at += 1
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                return true
            }
        }
        return false
    }

    /// The value in progress, a `role`, ended before `end`.
    private func completed(_ role: Role, at end: Int) {
        switch role {
        case .element:
            element?.end = end
            state = .listAfter
        case .member:
            state = .objectAfter
        case .key:
            state = .colon
        }
    }

    private var wantsList: Bool { !found && keyBytes == key }

    private func closeList() {
        if listInObject {
            found = true
            state = .objectAfter
        } else {
            state = .end
        }
    }

    private func closeObject() throws {
        guard found else { throw malformed("no '\(String(decoding: key, as: UTF8.self))' list in the object") }
        state = .end
    }

    /// At the very start of the text and at a byte 0xEF: steps over a UTF-8 byte order mark;
    /// false when the bytes are not one.
    private func startsWithByteOrderMark() throws -> Bool {
        while filled < 3 && !ended { try refill() }
        guard filled >= 3, storage[1] == 0xBB, storage[2] == 0xBF else { return false }
        position = 3
        return true
    }

    /// Reads more text after what is held, first dropping what is scanned and no longer
    /// needed (everything before the element being read), and growing the buffer when the
    /// element fills it.
    private func refill() throws {
        let keep = element?.start ?? position
        if keep > 0 {
            let kept = filled - keep
            if kept > 0 { storage.baseAddress!.copyMemory(from: storage.baseAddress! + keep, byteCount: kept) }
            filled = kept
            position -= keep
            base += keep
            if let held = element { element = (held.start - keep, held.end - keep) }
        }
        if storage.count - filled < Self.pieceSize {
            let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: max(storage.count * 2, filled + Self.pieceSize), alignment: 16)
            if filled > 0 { larger.baseAddress!.copyMemory(from: storage.baseAddress!, byteCount: filled) }
            storage.deallocate()
            storage = larger
        }
        let count = try read(UnsafeMutableRawBufferPointer(rebasing: storage[filled...]))
        if count == 0 { ended = true } else { filled += count }
    }

    private func malformed(_ description: String) -> Malformed { Malformed(description: description) }

    private func expectedList() -> Malformed {
        malformed("expected a list ([…]) or an object with '\(String(decoding: key, as: UTF8.self))'")
    }

    private func notAList() -> Malformed { malformed("'\(String(decoding: key, as: UTF8.self))' is not a list") }

    /// What was expected here.
    private func unexpected(_ expected: String) -> Malformed { malformed("expected \(expected) at byte \(base + position)") }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    private static func endsScalar(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") || isSpace(byte)
    }
}

/// An element of a list failed to decode; says which.
struct ListElementError: Error, CustomStringConvertible {
    let index: Int
    let underlying: any Error

    var description: String {
        let detail = underlying.decodingSummary
        return "at [\(index)]" + (detail.hasPrefix("at the top level") ? detail.dropFirst("at the top level".count) : (detail.hasPrefix("at ") ? "." + detail.dropFirst(3) : ": " + detail))
    }
}
