/// One album of the catalog (SPEC section 1). A validated value: every `Album` that exists
/// obeys the field rules, so storage and output code never re-check them. The core six are
/// its own properties; every other field is in ``details`` (``AlbumField`` lists them all).
public struct Album: Hashable, Sendable, Codable, AlbumDetailsCarrier {
    public var id: AlbumID
    public var title: String
    public var artist: String
    public var genre: String
    /// `""` or one to four digits.
    public var year: String
    /// `http(s)://…`, `file://…`, `covers/<name>`, or nil for no cover.
    public var coverUrl: String? {
        get { cover?.text }
        set { cover = newValue.map(CoverReference.init) }
    }
    /// The cover reference as kept: a stored cover's name in its bytes (``CoverReference``).
    package private(set) var cover: CoverReference?
    /// Every field beyond the core six, checked.
    public var details: AlbumDetails

    /// Makes an album, checking every field; `label` names it in errors (defaults to the title).
    /// When `details` has a release date, `year` is its year.
    public init(
        id: AlbumID, title: String, artist: String, genre: String = "", year: String = "",
        coverUrl: String? = nil, details: AlbumDetails = AlbumDetails(), label: @autoclosure () -> String? = nil
    ) throws(AlbumKitError) {
        // Only an error needs the name: building it for every valid album costs a string each.
        func name() -> String { label() ?? "'\(title)'" }
        guard AlbumID.isValid(id.rawValue) else {
            throw .invalidAlbum(name(), field: "id", "must be non-empty, not all digits, without control characters or white space at either end")
        }
        self.id = id
        self.title = try FieldRules.text(title, field: "title", album: name(), required: true)
        self.artist = try FieldRules.text(artist, field: "artist", album: name(), required: true)
        self.genre = try FieldRules.text(genre, field: "genre", album: name(), required: false)
        self.cover = try FieldRules.coverURL(coverUrl, album: name()).map(CoverReference.init)
        self.details = details.isEmpty ? details : try details.validated(album: name)
        if let released = self.details[.released] {
            self.year = String(released.prefix(4))
        } else {
            self.year = try FieldRules.year(year, album: name())
        }
    }

    /// An album of fields that were checked when it was first made (read back from a scratch
    /// file this process wrote): nothing is checked again.
    package init(
        checkedID id: AlbumID, title: String, artist: String, genre: String, year: String, cover: CoverReference?,
        details: AlbumDetails = AlbumDetails()
    ) {
        self.id = id
        self.title = title
        self.artist = artist
        self.genre = genre
        self.year = year
        self.cover = cover
        self.details = details
    }

    /// Decodes leniently (year as string or integer, unknown keys to `fields`) and then
    /// validates like `init`.
    public init(from decoder: any Decoder) throws {
        let record = try AlbumRecord(from: decoder)
        guard let id = record.id else {
            throw DecodingError.keyNotFound(
                AlbumCodingKey(AlbumField.id.name), .init(codingPath: decoder.codingPath, debugDescription: "stored albums need an id"))
        }
        self = try record.validated(newID: id, label: "'\(record.title)'")
    }

    /// Encodes every field the album has under its name (``AlbumCoding``).
    public func encode(to encoder: any Encoder) throws {
        try AlbumCoding.encode(AlbumRecord(self), to: encoder)
    }

    /// The same artist, title and year, ignoring case: how `import` spots a duplicate of an
    /// album that arrives without an id.
    public var duplicateKey: String { Self.duplicateKey(artist: artist, title: title, year: year) }

    /// The duplicate key of these fields (trimmed, ignoring case), for records not yet validated.
    public static func duplicateKey(artist: String, title: String, year: String) -> String {
        if let key = asciiDuplicateKey(artist: artist, title: title, year: year) { return key }
        // Built in place: a list of the three, mapped and joined, cost two more allocations for
        // every album `dedupe` sees.
        var key = artist.trimmingWhiteSpace().lowercased()
        key.append("\u{1F}")
        key.append(title.trimmingWhiteSpace().lowercased())
        key.append("\u{1F}")
        key.append(year.trimmingWhiteSpace().lowercased())
        return key
    }

    /// ``duplicateKey(artist:title:year:)`` of three ASCII texts, written into one string; nil
    /// when one is not ASCII. `dedupe` asks for the key of every album an import reads: each
    /// text trimmed and lower-cased apart, then appended, was three strings more for each.
    private static func asciiDuplicateKey(artist: String, title: String, year: String) -> String? {
        var ascii = true
        let key = String(unsafeUninitializedCapacity: artist.utf8.count + title.utf8.count + year.utf8.count + 2) { buffer in
            var end = 0
            ascii = forEachASCIIKeyByte(of: artist, title, year) { byte in
                buffer[end] = byte
                end += 1
                return true
            } == true
            return ascii ? end : 0
        }
        return ascii ? key : nil
    }

    /// Hands `take` the bytes of the ASCII duplicate key of `artist`, `title` and `year`, in
    /// order, while it returns true: an ASCII field's key bytes are its trimmed bytes, A–Z
    /// lower-cased, and U+001F joins the fields. Whether `take` took them all; nil when a field
    /// reached is not ASCII. (The fields are not passed as an array: that would be an allocation
    /// for every album `dedupe` reads.)
    private static func forEachASCIIKeyByte(of artist: String, _ title: String, _ year: String, _ take: (UInt8) -> Bool) -> Bool? {
        for number in 0..<3 {
            guard number == 0 || take(0x1F) else { return false }
            let field = number == 0 ? artist : number == 1 ? title : year
            let taken = field.utf8.withContiguousStorageIfAvailable { bytes -> Bool? in
                guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
                var start = bytes.startIndex
                var stop = bytes.endIndex
                while start < stop, bytes[start].isASCIIWhiteSpaceOrNonASCII { start += 1 }
                while stop > start, bytes[stop - 1].isASCIIWhiteSpaceOrNonASCII { stop -= 1 }
                for byte in bytes[start..<stop] where !take((UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte) {
                    return false
                }
                return true
            }
            guard let taken, let taken else { return nil }
            guard taken else { return false }
        }
        return true
    }

    /// Whether ``duplicateKey`` is `key`. A duplicate check asks this of every album of a
    /// library, so when `key` and the fields are ASCII it compares bytes without building the key.
    public func hasDuplicateKey(_ key: String) -> Bool {
        guard Self.mayHaveDuplicateKey(year: year, key) else { return false }
        return asciiDuplicateKey(is: key) ?? (duplicateKey == key)
    }

    /// False when `year`, the key's last field, already tells an album apart from `key` — most
    /// albums of a library, told apart in a few bytes. A year of digits only is its own key part.
    static func mayHaveDuplicateKey(year: String, _ key: String) -> Bool {
        let year = year.utf8
        guard year.allSatisfy({ (0x30...0x39).contains($0) }) else { return true }
        let key = key.utf8
        guard key.count > year.count else { return false }
        let separator = key.index(key.endIndex, offsetBy: -(year.count + 1))
        return key[separator] == 0x1F && key[key.index(after: separator)...].elementsEqual(year)
    }

    /// Whether the ASCII key of this album is `key`, compared byte by byte
    /// (``forEachASCIIKeyByte(of:_:_:_:)``); nil when `key` or a field this needed to compare
    /// is not ASCII. A mismatch in the ASCII part stands whatever follows: Unicode
    /// normalization changes no ASCII character before a U+001F separator.
    private func asciiDuplicateKey(is key: String) -> Bool? {
        guard key.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        var rest = key.utf8[...]
        let matched = Self.forEachASCIIKeyByte(of: artist, title, year) { byte in
            guard rest.first == byte else { return false }
            rest.removeFirst()
            return true
        }
        guard let matched else { return nil }
        return matched && rest.isEmpty
    }
}
