/// Albums and records as a scratch file's records keep them (``SpillEncoder``): each field in
/// order, a stored cover's name as its digest and kind (33 bytes, not 75), a one-value field's
/// name as its place in ``AlbumField/scalars``.
extension SpillEncoder {
    /// A cover reference: 0 for none, 1 and the digest and kind for a stored cover's name, 2
    /// and the text for any other.
    mutating func cover(_ reference: CoverReference?) {
        switch reference {
        case nil:
            byte(0)
        case .stored(let digest, let kind):
            byte(1)
            let (first, second, third, fourth) = digest.words
            for value in [first, second, third, fourth] { word(value) }
            byte(UInt8(ImageKind.allCases.firstIndex(of: kind)!))
        case .text(let text):
            byte(2)
            self.text(text)
        }
    }

    /// A record's fields; a missing id as a leading 0, a present one after a 1.
    mutating func record(_ record: AlbumRecord) {
        optionalText(record.id?.rawValue)
        text(record.title)
        text(record.artist)
        text(record.genre)
        text(record.year)
        cover(record.cover)
        details(record.details)
    }

    /// The details: each part's count, then its entries (an album without details is one byte).
    mutating func details(_ details: AlbumDetails) {
        guard !details.isEmpty else { return byte(0) }
        byte(1)
        let values = details.values
        integer(values.reduce(0) { $1 == nil ? $0 : $0 + 1 })
        for (place, value) in values.enumerated() {
            // A one-value field by its place in ``AlbumField/scalars``, as the details keep it.
            guard let value else { continue }
            byte(UInt8(place))
            text(value)
        }
        integer(details.tags.count)
        for tag in details.tags { text(tag) }
        map(details.ids)
        map(details.fields)
        integer(details.tracks.count)
        for track in details.tracks {
            text(track.title)
            integer(track.number ?? 0)
            integer(track.disc ?? 0)
            optionalText(track.artist)
            if let seconds = track.seconds {
                byte(1)
                word(seconds.bitPattern)
            } else {
                byte(0)
            }
            map(track.ids)
            map(track.fields)
        }
    }

    private mutating func map(_ map: [String: String]) {
        integer(map.count)
        for (name, value) in map {
            text(name)
            text(value)
        }
    }

    private mutating func optionalText(_ value: String?) {
        byte(value == nil ? 0 : 1)
        if let value { text(value) }
    }
}

extension SpillDecoder {
    /// A cover reference ``SpillEncoder/cover(_:)`` wrote.
    mutating func cover() throws(AlbumKitError) -> CoverReference? {
        switch try byte() {
        case 0:
            return nil
        case 1:
            let words = (try word(), try word(), try word(), try word())
            let kind = Int(try byte())
            guard kind < ImageKind.allCases.count else { throw Self.unknown("image kind") }
            return .stored(SHA256Words(words: words), ImageKind.allCases[kind])
        case 2:
            return .text(try text())
        default:
            throw Self.unknown("cover reference")
        }
    }

    /// A record ``SpillEncoder/record(_:)`` wrote.
    mutating func record() throws(AlbumKitError) -> AlbumRecord {
        let id = try byte() == 1 ? AlbumID(try text()) : nil
        return AlbumRecord(
            id: id, title: try text(), artist: try text(), genre: try text(), year: try text(), cover: try cover(), details: try details())
    }

    /// Details ``SpillEncoder/details(_:)`` wrote.
    mutating func details() throws(AlbumKitError) -> AlbumDetails {
        guard try byte() == 1 else { return AlbumDetails() }
        let valueCount = try count()
        var values = [String?](repeating: nil, count: AlbumField.scalars.count)
        for _ in 0..<valueCount {
            let place = Int(try byte())
            guard place < AlbumField.scalars.count else { throw Self.unknown("field") }
            values[place] = try text()
        }
        var details = AlbumDetails(checkedValues: values)
        for _ in 0..<(try count()) { details.tags.append(try text()) }
        details.ids = try map()
        details.fields = try map()
        for _ in 0..<(try count()) {
            var track = Track(title: try text())
            let number = try integer()
            let disc = try integer()
            track.number = number == 0 ? nil : number
            track.disc = disc == 0 ? nil : disc
            track.artist = try byte() == 1 ? try text() : nil
            track.seconds = try byte() == 1 ? Double(bitPattern: try word()) : nil
            track.ids = try map()
            track.fields = try map()
            details.tracks.append(track)
        }
        return details
    }

    private mutating func map() throws(AlbumKitError) -> [String: String] {
        let count = try count()
        // Made at its size at once: grown entry by entry, a map of a dozen was rehashed thrice.
        var map = [String: String](minimumCapacity: count)
        for _ in 0..<count { map[try text()] = try text() }
        return map
    }

    /// A count of entries; a negative or huge one is a damaged record.
    private mutating func count() throws(AlbumKitError) -> Int {
        let count = try integer()
        guard (0...1_000_000).contains(count) else { throw Self.unknown("count") }
        return count
    }

    /// The error for a tag this program never writes.
    static func unknown(_ what: String) -> AlbumKitError {
        AlbumKitError(.fileSystem, "a scratch file's record holds an unknown \(what)")
    }
}

extension Album: Spillable {
    func spill(into encoder: inout SpillEncoder) {
        encoder.text(id.rawValue)
        encoder.text(title)
        encoder.text(artist)
        encoder.text(genre)
        encoder.text(year)
        encoder.cover(cover)
        encoder.details(details)
    }

    /// An album read back as it was written (its fields were checked when it was made).
    init(unspilling decoder: inout SpillDecoder) throws {
        self.init(
            checkedID: AlbumID(try decoder.text()), title: try decoder.text(), artist: try decoder.text(), genre: try decoder.text(),
            year: try decoder.text(), cover: try decoder.cover(), details: try decoder.details())
    }
}
