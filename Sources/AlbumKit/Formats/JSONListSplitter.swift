import Foundation

/// Finds the elements of a JSON list — the array at the root, or under one key of a root
/// object — as byte ranges, without building the document in memory. Each element is then
/// decoded on its own, so a 10 000-album list never becomes one 10 000-album tree.
///
/// It checks structure only as far as finding the elements needs (strings, brackets, commas,
/// nothing after the root); the strict check is the decoder's, element by element. Depth is a
/// counter, not recursion, so deep nesting cannot exhaust the stack.
enum JSONListSplitter {
    /// The structure is broken.
    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    /// The ranges of the list's elements in `data` (indexes relative to `data.startIndex`).
    static func elements(of data: Data, underKey key: String) throws -> [Range<Int>] {
        try data.withUnsafeBytes { raw in
            var scanner = Scanner(bytes: raw.bindMemory(to: UInt8.self), key: Array(key.utf8))
            return try scanner.list()
        }
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        let key: [UInt8]
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>, key: [UInt8]) {
            self.bytes = bytes
            self.key = key
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        }

        mutating func list() throws -> [Range<Int>] {
            skipSpace()
            let elements: [Range<Int>]
            switch peek() {
            case UInt8(ascii: "["): elements = try arrayElements()
            case UInt8(ascii: "{"): elements = try elementsUnderKey()
            case nil: throw Malformed(description: "the input is empty")
            default: throw Malformed(description: "expected a list ([…]) or an object with '\(String(decoding: key, as: UTF8.self))'")
            }
            skipSpace()
            guard index == bytes.count else { throw Malformed(description: "unexpected bytes after the list at byte \(index)") }
            return elements
        }

        private mutating func elementsUnderKey() throws -> [Range<Int>] {
            index += 1
            var found: [Range<Int>]?
            skipSpace()
            if peek() == UInt8(ascii: "}") {
                index += 1
            } else {
                while true {
                    skipSpace()
                    guard peek() == UInt8(ascii: "\"") else { throw Malformed(description: "expected a key at byte \(index)") }
                    let name = try string()
                    skipSpace()
                    guard peek() == UInt8(ascii: ":") else { throw Malformed(description: "expected ':' at byte \(index)") }
                    index += 1
                    skipSpace()
                    // The first list under the key counts, as `JSONDecoder` takes the first.
                    if found == nil, Array(bytes[name]) == key {
                        guard peek() == UInt8(ascii: "[") else {
                            throw Malformed(description: "'\(String(decoding: key, as: UTF8.self))' is not a list")
                        }
                        found = try arrayElements()
                    } else {
                        try skipValue()
                    }
                    skipSpace()
                    if peek() == UInt8(ascii: ",") { index += 1; continue }
                    guard peek() == UInt8(ascii: "}") else { throw unexpected("',' or '}'") }
                    index += 1
                    break
                }
            }
            guard let found else { throw Malformed(description: "no '\(String(decoding: key, as: UTF8.self))' list in the object") }
            return found
        }

        private mutating func arrayElements() throws -> [Range<Int>] {
            index += 1
            var elements: [Range<Int>] = []
            skipSpace()
            if peek() == UInt8(ascii: "]") {
                index += 1
                return elements
            }
            while true {
                skipSpace()
                let start = index
                try skipValue()
                elements.append(start..<index)
                skipSpace()
                if peek() == UInt8(ascii: ",") { index += 1; continue }
                guard peek() == UInt8(ascii: "]") else { throw unexpected("',' or ']'") }
                index += 1
                return elements
            }
        }

        /// Moves past one value: a string, an object or array (by depth), or a scalar.
        private mutating func skipValue() throws {
            switch peek() {
            case UInt8(ascii: "\""):
                _ = try string()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                while index < bytes.count {
                    switch bytes[index] {
                    case UInt8(ascii: "\""):
                        _ = try string()
                        continue
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        depth -= 1
                        if depth == 0 {
                            index += 1
                            return
                        }
                    default:
                        break
                    }
                    index += 1
                }
                throw Malformed(description: "the input ends inside a list or object")
            default:
                let start = index
                while index < bytes.count, !Self.endsScalar(bytes[index]) { index += 1 }
                guard index > start else { throw Malformed(description: "expected a value at byte \(index)") }
            }
        }

        /// Moves past a string and returns the range of its contents.
        private mutating func string() throws -> Range<Int> {
            index += 1
            let start = index
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "\""):
                    index += 1
                    return start..<(index - 1)
                default: index += 1
                }
            }
            throw Malformed(description: "the input ends inside a string")
        }

        private mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }

        private func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

        /// What was expected here, or that the input ended too soon.
        private func unexpected(_ expected: String) -> Malformed {
            Malformed(description: index < bytes.count ? "expected \(expected) at byte \(index)" : "the input ends inside a list or object")
        }

        private static func endsScalar(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") || [0x20, 0x0A, 0x0D, 0x09].contains(byte)
        }
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
