import Foundation

/// How deep the elements of an XML text nest, looked at before Foundation's property list
/// reader gets it: that reader descends one call per element, so a file of a few thousand
/// nested `<array>`s overflows the stack (a crash, not an error; found by `fuzz-plist`).
enum XMLNesting {
    /// Whether any element of `data` lies deeper than `limit` levels. Comments, CDATA sections,
    /// processing instructions and declarations are skipped as the reader skips them; anything
    /// else that opens with `<` counts, so a malformed text is counted at least as deep as it is.
    static func exceeds(_ limit: Int, in data: Data) -> Bool {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Bool in
            let bytes = raw.bindMemory(to: UInt8.self)
            var depth = 0
            var at = 0
            while let open = index(of: UInt8(ascii: "<"), in: bytes, from: at) {
                let next = open + 1 < bytes.count ? bytes[open + 1] : 0
                if starts(bytes, at: open, with: "<!--") {
                    at = end(of: "-->", in: bytes, from: open + 4)
                } else if starts(bytes, at: open, with: "<![CDATA[") {
                    at = end(of: "]]>", in: bytes, from: open + 9)
                } else if next == UInt8(ascii: "?") {
                    at = end(of: "?>", in: bytes, from: open + 2)
                } else {
                    let close = index(of: UInt8(ascii: ">"), in: bytes, from: open + 1) ?? bytes.count
                    if next == UInt8(ascii: "/") {
                        depth = max(0, depth - 1)
                    } else if next != UInt8(ascii: "!"), close == bytes.count || bytes[close - 1] != UInt8(ascii: "/") {
                        depth += 1
                        if depth > limit { return true }
                    }
                    at = close + 1
                }
            }
            return false
        }
    }

    private static func index(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        return bytes[start...].firstIndex(of: byte)
    }

    private static func starts(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard start + count <= bytes.count else { return false }
        return (0..<count).allSatisfy { bytes[start + $0] == text.utf8Start[$0] }
    }

    /// The index just past the first `text` at or after `start`, or the end of `bytes`.
    private static func end(of text: StaticString, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var at = start
        while let found = index(of: text.utf8Start[0], in: bytes, from: at) {
            if starts(bytes, at: found, with: text) { return found + text.utf8CodeUnitCount }
            at = found + 1
        }
        return bytes.count
    }
}
