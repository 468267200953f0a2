import Foundation

/// The album-shaped values of library files and album lists, read straight from the text with
/// the meaning their `Decodable` conformances give them (``AlbumRecord``, ``LibraryState``).
extension JSONCursor {
    /// An album object as ``AlbumRecord`` decodes it (``AlbumCoding``): `title` and `artist`
    /// required strings; `id`, `genre`, `coverUrl` strings or null; `year` a string, an integer
    /// or null; the other fields of ``AlbumField`` by their kind; any other key with a text,
    /// number or boolean to `fields`. A key given twice is refused; so is anything this reader
    /// is unsure of, which `JSONDecoder` then reads. With `only`, the fields beyond the core six
    /// it does not name are stepped over unread (``passValue()``).
    mutating func albumRecord(only named: Set<AlbumField>? = nil) throws -> AlbumRecord {
        var seen = KeysSeen()
        var id: AlbumID?
        var title: String?
        var artist: String?
        var genre = ""
        var year = ""
        var coverUrl: String?
        var details = AlbumDetails()
        var unknown: [(String, String?)] = []
        try members { cursor, key in
            if key.is("id") {
                try seen.mark(0, cursor)
                id = try cursor.optionalString().map(AlbumID.init(rawValue:))
            } else if key.is("title") {
                try seen.mark(1, cursor)
                title = try cursor.string()
            } else if key.is("artist") {
                try seen.mark(2, cursor)
                artist = try cursor.string()
            } else if key.is("genre") {
                try seen.mark(3, cursor)
                genre = try cursor.optionalString() ?? ""
            } else if key.is("year") {
                try seen.mark(4, cursor)
                year = try cursor.atString() ? cursor.string() : cursor.takeNull() ? "" : String(cursor.integer())
            } else if key.is("coverUrl") {
                try seen.mark(5, cursor)
                coverUrl = try cursor.optionalString()
            } else if let index = AlbumField.all.firstIndex(where: { key.is($0.name) }) {
                try seen.mark(index, cursor)
                if named?.contains(AlbumField.all[index]) ?? true {
                    try cursor.detail(AlbumField.all[index], into: &details)
                } else {
                    try cursor.passValue()
                }
            } else {
                switch try cursor.scalar() {
                case .text(let text): unknown.append((key.text, text))
                case .composite: unknown.append((key.text, nil))
                case .null: break
                }
            }
        }
        guard let title, let artist else { throw refusal("an album without a title or artist") }
        var record = AlbumRecord(id: id, title: title, artist: artist, genre: genre, year: year, coverUrl: coverUrl, details: details)
        for (name, text) in unknown { record.keep(unknown: name, text) }
        return record
    }

    /// An object of the fields beyond the core six, as ``JSONOutput/details(of:)`` writes it;
    /// with `fields`, the others are skipped (their keys are still checked).
    mutating func albumDetails(only fields: Set<AlbumField>? = nil) throws -> AlbumDetails {
        var seen = KeysSeen()
        var details = AlbumDetails()
        try members { cursor, key in
            guard let index = AlbumField.all.firstIndex(where: { key.is($0.name) }), !AlbumField.all[index].isCore else {
                throw cursor.refusal("'\(key.text)' is not a field beyond the core six")
            }
            try seen.mark(index, cursor)
            if fields?.contains(AlbumField.all[index]) ?? true {
                try cursor.detail(AlbumField.all[index], into: &details)
            } else {
                try cursor.skipValue()
            }
        }
        return details
    }

    /// The value of one of the fields beyond the core six, read into `details`.
    private mutating func detail(_ field: AlbumField, into details: inout AlbumDetails) throws {
        switch field.kind {
        case .text, .date, .timestamp, .notes:
            details[field] = try optionalString()
        case .rating:
            details[field] = try takeNull() ? nil : ScalarText.text(of: double())
        case .tags:
            var tags: [String] = []
            if !takeNull() { try elements { tags.append(try $0.string()) } }
            details.tags = tags
        case .ids:
            details.ids = try takeNull() ? [:] : textMap()
        case .fields:
            details.fields = try takeNull() ? [:] : scalarMap()
        case .tracks:
            var tracks: [Track] = []
            if !takeNull() { try elements { tracks.append(try $0.track()) } }
            details.tracks = tracks
        case .id, .requiredText, .year, .cover:
            throw refusal("a core field read as a detail")
        }
    }

    /// A track object as ``TrackCoding`` decodes it.
    private mutating func track() throws -> Track {
        var seen = KeysSeen()
        var track = Track(title: "")
        var title: String?
        var extra: [String: String] = [:]
        try members { cursor, key in
            if key.is("title") {
                try seen.mark(0, cursor)
                title = try cursor.string()
            } else if key.is("number") {
                try seen.mark(1, cursor)
                track.number = try cursor.takeNull() ? nil : Int(cursor.integer())
            } else if key.is("disc") {
                try seen.mark(2, cursor)
                track.disc = try cursor.takeNull() ? nil : Int(cursor.integer())
            } else if key.is("artist") {
                try seen.mark(3, cursor)
                track.artist = try cursor.optionalString()
            } else if key.is("seconds") {
                try seen.mark(4, cursor)
                track.seconds = try cursor.takeNull() ? nil : cursor.double()
            } else if key.is("ids") {
                try seen.mark(5, cursor)
                track.ids = try cursor.takeNull() ? [:] : cursor.textMap()
            } else if key.is("fields") {
                try seen.mark(6, cursor)
                track.fields = try cursor.takeNull() ? [:] : cursor.scalarMap()
            } else if case .text(let text) = try cursor.scalar(), AlbumField.isFieldName(key.text) {
                extra[key.text] = text
            }
        }
        guard let title else { throw refusal("a track without a title") }
        track.title = title
        track.fields.merge(extra) { kept, _ in kept }
        return track
    }

    /// An object of strings.
    private mutating func textMap() throws -> [String: String] {
        var map: [String: String] = [:]
        try stringKeyedMembers { cursor, name in
            guard map.updateValue(try cursor.string(), forKey: name) == nil else { throw cursor.refusal("a name given twice") }
        }
        return map
    }

    /// An object of texts, numbers and booleans, each kept as text (null values dropped).
    private mutating func scalarMap() throws -> [String: String] {
        var map: [String: String] = [:]
        try stringKeyedMembers { cursor, name in
            switch try cursor.scalar() {
            case .text(let text):
                guard map.updateValue(text, forKey: name) == nil else { throw cursor.refusal("a name given twice") }
            case .null: break
            case .composite: throw cursor.refusal("an object or array where a text was expected")
            }
        }
        return map
    }

    /// What ``scalar()`` read.
    enum Scalar {
        /// A text, number or boolean, as ``ScalarText`` keeps it.
        case text(String)
        /// `null`.
        case null
        /// An object or an array (read and dropped).
        case composite
    }

    /// Reads any value: a text, number or boolean as ``ScalarText`` keeps it (an integer as
    /// written, another number as `Double` writes it).
    mutating func scalar() throws -> Scalar {
        if takeNull() { return .null }
        if atString() { return .text(try string()) }
        if let flag = takeBoolean() { return .text(flag ? "true" : "false") }
        switch peek() {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            try skipValue()
            return .composite
        default:
            let lexeme = try numberLexeme()
            if let integer = Int64(lexeme) { return .text(String(integer)) }
            guard let number = Double(lexeme), number.isFinite else { throw refusal("a number out of range") }
            return .text(ScalarText.text(of: number))
        }
    }

    /// A stored album: an ``albumRecord(only:)`` with an id, validated as `Album(from:)` does
    /// (with `only`, of the fields beyond the core six only those it names).
    mutating func album(only named: Set<AlbumField>? = nil) throws -> Album {
        let record = try albumRecord(only: named)
        guard let id = record.id else { throw refusal("a stored album without an id") }
        return try record.validated(newID: id, label: "'\(record.title)'")
    }

    /// The memento as ``LibraryState`` decodes it (version 2 only).
    mutating func libraryState() throws -> LibraryState {
        var seen = KeysSeen()
        var version: Int64 = Int64(LibraryState.version)
        var current: AlbumID?
        var undo: [HistoryRef] = []
        var redo: [HistoryRef] = []
        var nextStep: Int64 = 1
        var covers: [String: CoverResolution] = [:]
        var lookups: [String: LookupAnswer] = [:]
        try members { cursor, key in
            if key.is("version") {
                try seen.mark(0, cursor)
                version = try cursor.takeNull() ? version : cursor.integer()
            } else if key.is("current") {
                try seen.mark(1, cursor)
                current = try cursor.optionalString().map(AlbumID.init(rawValue:))
            } else if key.is("undo") {
                try seen.mark(2, cursor)
                undo = try cursor.takeNull() ? [] : cursor.historyRefs()
            } else if key.is("redo") {
                try seen.mark(3, cursor)
                redo = try cursor.takeNull() ? [] : cursor.historyRefs()
            } else if key.is("nextStep") {
                try seen.mark(4, cursor)
                nextStep = try cursor.takeNull() ? 1 : cursor.integer()
            } else if key.is("covers") {
                try seen.mark(5, cursor)
                if !cursor.takeNull() { covers = try cursor.coverResolutions() }
            } else if key.is("lookups") {
                try seen.mark(6, cursor)
                if !cursor.takeNull() { lookups = try cursor.lookupAnswers() }
            } else {
                try cursor.skipValue()
            }
        }
        guard version == Int64(LibraryState.version) else { throw refusal("memento version \(version)") }
        return LibraryState(current: current, undo: undo, redo: redo, nextStep: nextStep, covers: covers, lookups: lookups)
    }

    private mutating func historyRefs() throws -> [HistoryRef] {
        var refs: [HistoryRef] = []
        try elements { cursor in
            var seen = KeysSeen()
            var id: Int64?
            var label: String?
            try cursor.members { cursor, key in
                if key.is("id") {
                    try seen.mark(0, cursor)
                    id = try cursor.integer()
                } else if key.is("label") {
                    try seen.mark(1, cursor)
                    label = try cursor.string()
                } else {
                    try cursor.skipValue()
                }
            }
            guard let id, let label else { throw cursor.refusal("a history entry without an id or label") }
            refs.append(HistoryRef(id: id, label: label))
        }
        return refs
    }

    private mutating func coverResolutions() throws -> [String: CoverResolution] {
        var resolutions: [String: CoverResolution] = [:]
        try stringKeyedMembers { cursor, reference in
            var seen = KeysSeen()
            var resolution = CoverResolution(key: nil, failure: nil)
            try cursor.members { cursor, key in
                if key.is("cover") {
                    try seen.mark(0, cursor)
                    resolution.key = try cursor.coverKey()
                } else if key.is("failed") {
                    try seen.mark(1, cursor)
                    resolution.failure = try cursor.optionalString()
                } else {
                    try cursor.skipValue()
                }
            }
            guard resolutions.updateValue(resolution, forKey: reference) == nil else { throw cursor.refusal("a cover reference given twice") }
        }
        return resolutions
    }

    private mutating func lookupAnswers() throws -> [String: LookupAnswer] {
        var answers: [String: LookupAnswer] = [:]
        try stringKeyedMembers { cursor, name in
            guard answers.updateValue(try cursor.lookupAnswer(), forKey: name) == nil else { throw cursor.refusal("a lookup answer given twice") }
        }
        return answers
    }

    /// One lookup answer as ``LookupAnswer`` decodes it.
    mutating func lookupAnswer() throws -> LookupAnswer {
        var seen = KeysSeen()
        var at: Int64?
        var answer = LookupAnswer(at: Date(timeIntervalSince1970: 0))
        try members { cursor, key in
            if key.is("at") {
                try seen.mark(0, cursor)
                at = try cursor.integer()
            } else if key.is("cover") {
                try seen.mark(1, cursor)
                answer.cover = try cursor.coverKey()
            } else if key.is("ids") {
                try seen.mark(2, cursor)
                answer.ids = try cursor.takeNull() ? [:] : cursor.textMap()
            } else if key.is("missed") {
                try seen.mark(3, cursor)
                answer.missed = try cursor.optionalString()
            } else if key.is("failed") {
                try seen.mark(4, cursor)
                answer.failed = try cursor.optionalString()
            } else if key.is("album") {
                try seen.mark(5, cursor)
                answer.album = try cursor.takeNull() ? nil : cursor.album()
            } else {
                try cursor.skipValue()
            }
        }
        guard let at else { throw refusal("a lookup answer without its time") }
        answer.at = Date(timeIntervalSince1970: TimeInterval(at))
        return answer
    }

    /// A stored cover's name (`<sha256>.<ext>`) as its key, or nil for null.
    private mutating func coverKey() throws -> CoverKey? {
        try optionalString().map { name in
            guard let key = CoverKey(fileName: name) else { throw refusal("'\(name)' is not <sha256>.<ext>") }
            return key
        }
    }

    /// A string, or nil for null.
    private mutating func optionalString() throws(Refusal) -> String? {
        takeNull() ? nil : try string()
    }
}

/// Which of an object's known keys have been read, to refuse one given twice.
private struct KeysSeen {
    private var bits: UInt32 = 0

    mutating func mark(_ key: Int, _ cursor: JSONCursor) throws(JSONCursor.Refusal) {
        guard bits & (1 << key) == 0 else { throw cursor.refusal("a key given twice") }
        bits |= 1 << key
    }
}
