/// Records written one after another to a ``ScratchFile``: each is its length (4 bytes,
/// little-endian) and then the bytes a ``SpillEncoder`` made. Appends go through a buffer of
/// ``flushSize`` bytes, so a writer holds that much, whatever it writes in all.
struct SpillWriter {
    /// Bytes gathered before they go to the file.
    static let flushSize = 256 << 10

    let file: ScratchFile
    /// The records not yet written (its bytes), and the texts its slots remember.
    private var encoder = SpillEncoder()
    /// The bytes in the file (not counting those still pending).
    private var written = 0
    /// How many records were appended.
    private(set) var count = 0

    /// A writer at the start of `file`.
    init(file: ScratchFile) {
        self.file = file
        encoder.bytes.reserveCapacity(Self.flushSize + 512)
    }

    /// Where the next record starts (the file's bytes and those pending).
    var endOffset: Int { written + encoder.bytes.count }

    /// The record that starts at `offset`, one this writer appended, as `decode` reads it; read
    /// alone, so it must not use slots (``SpillEncoder/text(_:slot:)``).
    func record<Value>(at offset: Int, _ decode: (inout SpillDecoder) throws -> Value) throws -> Value {
        if offset >= written {
            return try encoder.bytes.withUnsafeBytes { bytes in
                try Self.decode(UnsafeRawBufferPointer(rebasing: bytes[(offset - written)...]), decode)
            }
        }
        var length = [UInt8](repeating: 0, count: 4)
        try length.withUnsafeMutableBytes { try file.read(into: $0, at: offset) }
        var bytes = [UInt8](repeating: 0, count: 4 + Self.length(length[...]))
        try bytes.withUnsafeMutableBytes { try file.read(into: $0, at: offset) }
        return try bytes.withUnsafeBytes { try Self.decode($0, decode) }
    }

    /// Decodes the record at the start of `bytes` (its length, then its fields).
    private static func decode<Value>(_ bytes: UnsafeRawBufferPointer, _ decode: (inout SpillDecoder) throws -> Value) throws -> Value {
        let count = length(bytes.prefix(4))
        guard bytes.count >= 4, count <= bytes.count - 4 else { throw SpillDecoder.overrun }
        var decoder = SpillDecoder(UnsafeRawBufferPointer(rebasing: bytes[4..<(4 + count)]))
        return try decode(&decoder)
    }

    /// The length a record's first four bytes give.
    static func length(_ bytes: some Collection<UInt8>) -> Int {
        bytes.enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
    }

    /// Appends one record, whose bytes `encode` makes.
    mutating func append(_ encode: (inout SpillEncoder) -> Void) throws {
        let start = encoder.bytes.count
        encoder.bytes.append(contentsOf: [0, 0, 0, 0] as [UInt8])
        encode(&encoder)
        let length = UInt32(encoder.bytes.count - start - 4)
        for shift in 0..<4 { encoder.bytes[start + shift] = UInt8(truncatingIfNeeded: length >> (8 * UInt32(shift))) }
        count += 1
        if encoder.bytes.count >= Self.flushSize { try flush() }
    }

    /// Writes what is pending; returns the file's size, the end readers read to.
    @discardableResult
    mutating func flush() throws -> Int {
        guard !encoder.bytes.isEmpty else { return written }
        try encoder.bytes.withUnsafeBytes { bytes in try file.write(bytes, at: written) }
        written += encoder.bytes.count
        encoder.bytes.removeAll(keepingCapacity: true)
        return written
    }
}

/// Reads the records a ``SpillWriter`` wrote, in order, from the start of its file to `end`.
struct SpillReader {
    /// Bytes read from the file at a time (a record longer than this is read whole).
    static let readSize = 256 << 10

    private let file: ScratchFile
    private let end: Int
    /// The next byte of the file to read into the buffer.
    private var fileOffset = 0
    private var buffer: [UInt8] = []
    /// The next unread byte of the buffer.
    private var position = 0
    /// The texts the decoder's slots remember from the records before.
    private var remembered = SpillDecoder.Slots()

    /// A reader of the first `end` bytes of `file`.
    init(file: ScratchFile, end: Int) {
        self.file = file
        self.end = end
    }

    /// The next record as `decode` reads it, or nil after the last one.
    mutating func next<Value>(_ decode: (inout SpillDecoder) throws -> Value) throws -> Value? {
        guard position < buffer.count || fileOffset < end else { return nil }
        try fill(4)
        let length = SpillWriter.length(buffer[position..<(position + 4)])
        try fill(4 + length)
        let start = position + 4
        position = start + length
        return try buffer.withUnsafeBytes { bytes in
            var decoder = SpillDecoder(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + length)]), slots: remembered)
            defer { remembered = decoder.slots }
            return try decode(&decoder)
        }
    }

    /// Makes at least `count` unread bytes wait in the buffer.
    private mutating func fill(_ count: Int) throws {
        let unread = buffer.count - position
        guard unread < count else { return }
        buffer.removeSubrange(0..<position)
        position = 0
        let wanted = min(max(count - unread, Self.readSize), end - fileOffset)
        guard unread + wanted >= count else {
            throw AlbumKitError(.fileSystem, "a scratch file ends inside a record (\(end) bytes)")
        }
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: wanted))
        try buffer.withUnsafeMutableBytes { bytes in
            try file.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[old...]), at: fileOffset)
        }
        fileOffset += wanted
    }
}

/// Writes a record's fields as bytes: numbers as LEB128 varints, texts as their UTF-8 after
/// their length. A text that most records repeat (the input an album came from) goes into a
/// slot, which remembers it from one record to the next of the same writer.
struct SpillEncoder {
    fileprivate(set) var bytes: [UInt8] = []
    /// The text last written in each slot.
    private var slots = [String](repeating: "", count: SpillDecoder.Slots.count)

    /// `value` in `slot`: a 0 when it is the text the slot last held, else a 1 and the text.
    mutating func text(_ value: String, slot: Int) {
        if slots[slot] == value {
            byte(0)
        } else {
            byte(1)
            text(value)
            slots[slot] = value
        }
    }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func integer(_ value: Int) {
        var rest = UInt64(bitPattern: Int64(value))
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            integer(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func word(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
}

/// Reads the fields a ``SpillEncoder`` wrote, in the same order.
struct SpillDecoder {
    /// The texts of the slots, as the records before left them.
    struct Slots {
        /// How many slots a record may use.
        static let count = 4
        fileprivate var texts = [String](repeating: "", count: count)
    }

    private let bytes: UnsafeRawBufferPointer
    private var index = 0
    fileprivate private(set) var slots: Slots

    init(_ bytes: UnsafeRawBufferPointer, slots: Slots = Slots()) {
        self.bytes = bytes
        self.slots = slots
    }

    /// A text ``SpillEncoder/text(_:slot:)`` wrote in `slot`.
    mutating func text(slot: Int) throws(AlbumKitError) -> String {
        guard try byte() == 1 else { return slots.texts[slot] }
        let value = try text()
        slots.texts[slot] = value
        return value
    }

    mutating func byte() throws(AlbumKitError) -> UInt8 {
        guard index < bytes.count else { throw Self.overrun }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func integer() throws(AlbumKitError) -> Int {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            guard shift < 64 else { throw Self.overrun }
            value |= UInt64(next & 0x7F) << shift
            if next < 0x80 { return Int(Int64(bitPattern: value)) }
            shift += 7
        }
    }

    mutating func text() throws(AlbumKitError) -> String {
        let count = try integer()
        guard count >= 0, count <= bytes.count - index else { throw Self.overrun }
        defer { index += count }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[index..<(index + count)]), as: UTF8.self)
    }

    mutating func word() throws(AlbumKitError) -> UInt64 {
        guard bytes.count - index >= 8 else { throw Self.overrun }
        var value: UInt64 = 0
        for shift in 0..<8 { value |= UInt64(bytes[index + shift]) << UInt64(8 * shift) }
        index += 8
        return value
    }

    static let overrun = AlbumKitError(.fileSystem, "a scratch file's record is shorter than its fields")
}
