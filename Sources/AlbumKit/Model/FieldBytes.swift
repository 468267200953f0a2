/// What one pass over a field's UTF-8 bytes finds: a control character, a byte outside
/// ASCII. Eight bytes are looked at a time (a library read from a database checks six fields
/// of every album), a byte at a time only where a word holds a byte below space.
struct FieldBytes {
    /// A control character: below space except tab, or DEL. In UTF-8 these are single
    /// bytes, never part of a longer sequence.
    private(set) var hasControl = false
    /// A byte of 0x80 or more: the text is not ASCII.
    private(set) var hasNonASCII = false

    /// Scans `bytes` once.
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var high: UInt64 = 0
        var index = 0
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= bytes.count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                high |= word
                // A byte below 0x20 (tab among them), or a byte equal to 0x7F: the borrow test
                // of "Bit Twiddling Hacks" (hasless), exact for whether any byte matches.
                let belowSpace = (word &- ones &* 0x20) & ~word & highs
                let delete = ((word ^ (ones &* 0x7F)) &- ones) & ~(word ^ (ones &* 0x7F)) & highs
                if delete != 0 || (belowSpace != 0 && bytes[index..<index + 8].contains(where: Self.isControl)) {
                    hasControl = true
                }
                index += 8
            }
        }
        hasNonASCII = high & highs != 0
        for byte in bytes[index...] {
            hasNonASCII = hasNonASCII || byte >= 0x80
            hasControl = hasControl || Self.isControl(byte)
        }
    }

    /// Whether `byte` is a control character (tab is not).
    static func isControl(_ byte: UInt8) -> Bool { (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7F }
}
