/// The album-shaped values of library files and album lists, read straight from the text with
/// the meaning their `Decodable` conformances give them (``AlbumRecord``, ``LibraryState``).
extension JSONCursor {
    /// An album object as ``AlbumRecord`` decodes it: `title` and `artist` required strings;
    /// `id`, `genre`, `coverUrl` strings or null; `year` a string, an integer or null; other
    /// keys skipped. A key given twice is refused.
    mutating func albumRecord() throws -> AlbumRecord {
        var seen = KeysSeen()
        var id: AlbumID?
        var title: String?
        var artist: String?
        var genre = ""
        var year = ""
        var coverUrl: String?
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
            } else {
                try cursor.skipValue()
            }
        }
        guard let title, let artist else { throw refusal("an album without a title or artist") }
        return AlbumRecord(id: id, title: title, artist: artist, genre: genre, year: year, coverUrl: coverUrl)
    }

    /// A stored album: an ``albumRecord()`` with an id, validated as `Album(from:)` does.
    mutating func album() throws -> Album {
        let record = try albumRecord()
        guard let id = record.id else { throw refusal("a stored album without an id") }
        return try Album(
            id: id, title: record.title, artist: record.artist, genre: record.genre, year: record.year, coverUrl: record.coverUrl)
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
            } else {
                try cursor.skipValue()
            }
        }
        guard version == Int64(LibraryState.version) else { throw refusal("memento version \(version)") }
        return LibraryState(current: current, undo: undo, redo: redo, nextStep: nextStep, covers: covers)
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
                    resolution.key = try cursor.optionalString().map { name in
                        guard let key = CoverKey(fileName: name) else { throw cursor.refusal("'\(name)' is not <sha256>.<ext>") }
                        return key
                    }
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

    /// A string, or nil for null.
    private mutating func optionalString() throws(Refusal) -> String? {
        takeNull() ? nil : try string()
    }
}

/// Which of an object's known keys have been read, to refuse one given twice.
private struct KeysSeen {
    private var bits: UInt16 = 0

    mutating func mark(_ key: Int, _ cursor: JSONCursor) throws(JSONCursor.Refusal) {
        guard bits & (1 << key) == 0 else { throw cursor.refusal("a key given twice") }
        bits |= 1 << key
    }
}
