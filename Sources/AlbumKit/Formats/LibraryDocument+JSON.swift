import Foundation

extension LibraryDocument {
    /// Writes the document as JSON to `output`, piece by piece — no whole-library tree or text
    /// in memory. The same keys, sorted, and the same values `JSONEncoder` would write for the
    /// whole document (a test holds the two to it), one album a line.
    func writeJSON(to output: inout JSONOutput) throws {
        try Self.writeJSON(to: &output, state: state) { output, first in
            for album in albums { try output.listedAlbum(album, first: &first) }
            var appended = appended?.reader()
            while let album = try appended?.next() { try output.listedAlbum(album, first: &first) }
        }
    }

    /// Writes a document of `state` whose albums `writeAlbums` writes as listed elements
    /// (``JSONOutput/listedAlbum(_:first:)``): the one place the file's layout is written.
    static func writeJSON(
        to output: inout JSONOutput, state: LibraryState, albums writeAlbums: (inout JSONOutput, inout Bool) throws -> Void
    ) throws {
        try output.raw(#"{"albums":"#)
        var first = true
        try writeAlbums(&output, &first)
        try output.endList(first: first)
        try output.raw(#","format":"#)
        try output.string(formatName)
        try output.raw(#","state":"#)
        try output.state(state)
        try output.raw(#","version":"#)
        try output.integer(Int64(currentVersion))
        try output.raw("}")
        try output.flush()
    }
}

extension LoadedLibraryDocument {
    /// Reads a library document with ``JSONCursor``: strictly, as `JSONDecoder` would read it
    /// or stricter. A version 1 file's albums are read so too, and its memento, which carries
    /// the history inside (small unless it holds steps), by `JSONDecoder` from its own bytes.
    /// Throws on anything else, where a library file is read (``init(jsonText:)``) by
    /// `JSONDecoder`, which accepts or names the problem.
    init(strictJSON data: Data) throws {
        self = try data.withUnsafeBytes { raw in try Self.strictlyRead(JSONCursor(raw.bindMemory(to: UInt8.self))) }
    }

    /// Reads a library file's text: strictly, handing back the text of the albums as they are
    /// read (``JSONCursor/init(_:)-(FileText)``), else — what the strict reader refuses — with
    /// `JSONDecoder` from the whole text again.
    init(jsonText text: FileText) throws {
        if let strict = try? Self.strictlyRead(JSONCursor(text)) {
            self = strict
            return
        }
        try text.restore()
        try self.init(decoding: text)
    }

    /// Reads a library file's text with `JSONDecoder`, which accepts what it accepts or names
    /// the problem (``init(jsonText:)`` after the strict reader refused it).
    init(decoding text: FileText) throws {
        let bytes = UnsafeMutableRawPointer(mutating: text.bytes.baseAddress!)
        self = try withExtendedLifetime(text) {
            try JSONDecoder().decode(Self.self, from: Data(bytesNoCopy: bytes, count: text.bytes.count, deallocator: .none))
        }
    }

    private static func strictlyRead(_ start: JSONCursor) throws -> LoadedLibraryDocument {
        var cursor = start
        var albums: [Album]?
        var state: LibraryState?
        var stateBytes: Range<Int>?
        var format: String?
        var version: Int64?
        try cursor.members { cursor, key in
            if key.is("albums") {
                guard albums == nil else { throw cursor.refusal("'albums' given twice") }
                albums = try cursor.elements(splitting: { try $0.album() })
            } else if key.is("state") {
                guard stateBytes == nil else { throw cursor.refusal("'state' given twice") }
                // Its shape depends on the version, which may come after it: its bytes are
                // kept (from the value itself, past the white space `peek` skips).
                _ = cursor.peek()
                let start = cursor.index
                var reading = cursor
                if let read = try? reading.libraryState() {
                    (state, cursor) = (read, reading)
                } else {
                    try cursor.skipValue()
                }
                stateBytes = start..<cursor.index
            } else if key.is("format") {
                guard format == nil else { throw cursor.refusal("'format' given twice") }
                format = try cursor.string()
            } else if key.is("version") {
                guard version == nil else { throw cursor.refusal("'version' given twice") }
                version = try cursor.integer()
            } else {
                try cursor.skipValue()
            }
        }
        try cursor.end()
        guard format == LibraryDocument.formatName, let albums, let stateBytes else {
            throw cursor.refusal("not a library document")
        }
        switch version {
        case Int64(LibraryDocument.currentVersion)?:
            guard let state else { throw cursor.refusal("not a version \(LibraryDocument.currentVersion) memento") }
            return LoadedLibraryDocument(snapshot: LibrarySnapshot(albums: albums, state: state))
        case 1?:
            let file = try JSONDecoder().decode(StateFile.self, from: cursor.data(in: stateBytes))
            return LoadedLibraryDocument(albums: albums, versionOneState: file)
        default:
            throw cursor.refusal("not a version 1 or \(LibraryDocument.currentVersion) library document")
        }
    }
}

extension JSONFormat {
    /// Writes albums as a JSON array to a sink, a run at a time as they are read — one album a
    /// line, keys sorted, the values `JSONEncoder` writes — so that neither the list's text nor
    /// the whole list is ever in memory. (Bundles spool `albums.json` so, to learn the size its
    /// archive entry announces first.)
    public struct AlbumListWriter {
        private var output: JSONOutput
        private var first = true

        /// A writer handing its output to `sink`, a buffer at a time.
        package init(sink: @escaping (UnsafeRawBufferPointer) throws -> Void) {
            output = JSONOutput(sink: sink)
        }

        /// Writes `albums` after those written so far.
        public mutating func append(_ albums: some Sequence<Album>) throws {
            for album in albums { try output.listedAlbum(album, first: &first) }
        }

        /// Writes `albums` after those written so far, each album's details text (when it has
        /// one) copied in as it is: the same bytes as its details read and written again.
        package mutating func append(_ albums: [AlbumWithText]) throws {
            for album in albums { try output.listedAlbum(album, first: &first) }
        }

        /// Closes the list and writes what is buffered; nothing may be appended after it.
        public mutating func finish() throws {
            try output.endList(first: first)
            try output.flush()
        }
    }
}

extension JSONOutput {
    /// `album` as the next element of a list (the first, when `first`, which it clears).
    mutating func listedAlbum(_ album: Album, first: inout Bool) throws {
        try raw(first ? "[\n" : ",\n")
        first = false
        try self.album(album)
    }

    /// `album` as the next element of a list (the first, when `first`, which it clears).
    mutating func listedAlbum(_ album: AlbumWithText, first: inout Bool) throws {
        try raw(first ? "[\n" : ",\n")
        first = false
        if let details = album.details { try self.album(album.album, details: details) } else { try self.album(album.album) }
    }

    /// An album as the next element of a list, as its bytes were written before by
    /// ``album(_:)`` (a file's album a change leaves alone).
    mutating func listedAlbum(bytes: UnsafeBufferPointer<UInt8>, first: inout Bool) throws {
        try raw(first ? "[\n" : ",\n")
        first = false
        try self.bytes(bytes)
    }

    /// The end of a list whose elements `listedAlbum` wrote (none, when `first` is still set).
    mutating func endList(first: Bool) throws {
        try raw(first ? "[]" : "]")
    }

    /// An album object, keys sorted, as ``AlbumCoding`` encodes it: every field the album has.
    mutating func album(_ album: Album) throws {
        var first = true
        for place in AlbumField.sortedByName.indices { try field(at: place, of: album, first: &first) }
        try raw("}")
    }

    /// An album object as ``album(_:)`` writes it for `album` with the details `details`
    /// holds: their members copied in among the core six, each where its name sorts.
    mutating func album(_ album: Album, details: WriterFormDetails) throws {
        var first = true
        var next = 0
        // The core fields (the text holds no other) sorted before the field at `stop`.
        func core(upTo stop: Int) throws {
            while next < stop {
                try field(at: next, of: album, first: &first)
                next += 1
            }
            next += 1
        }
        var text = details.text
        try text.withUTF8 { utf8 in
            for member in details.members {
                try core(upTo: Int(member.field))
                try raw(first ? "{" : ",")
                first = false
                try bytes(UnsafeBufferPointer(rebasing: utf8[Int(member.start)..<Int(member.end)]))
            }
        }
        try core(upTo: AlbumField.sortedByName.count)
        try raw("}")
    }

    /// The object of an album's fields beyond the core six (``AlbumDetails/jsonText``).
    mutating func details(of album: Album) throws {
        var first = true
        for place in AlbumField.sortedByName.indices where !AlbumField.sortedByName[place].isCore { try field(at: place, of: album, first: &first) }
        try raw(first ? "{}" : "}")
    }

    /// Each field's name as a key (`"catalogNumber":`), by its place in ``AlbumField/sortedByName``:
    /// made once, where every member of every album escaped its name again.
    private static let keys = AlbumField.sortedByName.map { Array("\"\($0.name)\":".utf8) }

    /// The field at `place` in ``AlbumField/sortedByName`` of `album` as the object's next
    /// member (`{` before the first), when it has it.
    mutating func field(at place: Int, of album: Album, first: inout Bool) throws {
        let field = AlbumField.sortedByName[place]
        func key() throws {
            try raw(first ? "{" : ",")
            first = false
            try Self.keys[place].withUnsafeBufferPointer { try bytes($0) }
        }
        switch field.kind {
        case .id:
            try key()
            try string(album.id.rawValue)
        case .requiredText, .year:
            try key()
            try string(field == .title ? album.title : field == .artist ? album.artist : album.year)
        case .text where field.isCore:
            try key()
            try string(album.genre)
        case .cover:
            guard let cover = album.cover else { return }
            try key()
            try string(cover)
        case .text, .date, .timestamp, .notes, .rating:
            guard let value = album[field] else { return }
            try key()
            if field.kind == .rating, let number = Double(value) { try self.number(number) } else { try string(value) }
        case .tags:
            guard !album.tags.isEmpty else { return }
            try key()
            try texts(album.tags)
        case .ids:
            guard !album.ids.isEmpty else { return }
            try key()
            try textMap(album.ids)
        case .fields:
            guard !album.fields.isEmpty else { return }
            try key()
            try textMap(album.fields)
        case .tracks:
            guard !album.tracks.isEmpty else { return }
            try key()
            try raw("[")
            for (index, track) in album.tracks.enumerated() {
                if index > 0 { try raw(",") }
                try self.track(track)
            }
            try raw("]")
        }
    }

    /// A track object, keys sorted, as ``TrackCoding`` encodes it.
    private mutating func track(_ track: Track) throws {
        if let artist = track.artist {
            try raw(#"{"artist":"#)
            try string(artist)
            try raw(",")
        } else {
            try raw("{")
        }
        if let disc = track.disc {
            try raw(#""disc":"#)
            try integer(Int64(disc))
            try raw(",")
        }
        if !track.fields.isEmpty {
            try raw(#""fields":"#)
            try textMap(track.fields)
            try raw(",")
        }
        if !track.ids.isEmpty {
            try raw(#""ids":"#)
            try textMap(track.ids)
            try raw(",")
        }
        if let number = track.number {
            try raw(#""number":"#)
            try integer(Int64(number))
            try raw(",")
        }
        if let seconds = track.seconds {
            try raw(#""seconds":"#)
            try self.number(seconds)
            try raw(",")
        }
        try raw(#""title":"#)
        try string(track.title)
        try raw("}")
    }

    /// An array of strings.
    private mutating func texts(_ values: [String]) throws {
        try raw("[")
        for (index, value) in values.enumerated() {
            if index > 0 { try raw(",") }
            try string(value)
        }
        try raw("]")
    }

    /// An object of strings, keys sorted.
    private mutating func textMap(_ map: [String: String]) throws {
        try raw("{")
        // The entries sorted whole: sorting the names and looking each up again hashed every name.
        for (index, (name, value)) in map.sorted(by: { $0.key < $1.key }).enumerated() {
            if index > 0 { try raw(",") }
            try string(name)
            try raw(":")
            try string(value)
        }
        try raw("}")
    }

    /// The memento, keys sorted, as `LibraryState.encode(to:)` writes it.
    mutating func state(_ state: LibraryState) throws {
        try raw("{")
        if !state.covers.isEmpty {
            try raw(#""covers":{"#)
            for (index, reference) in state.covers.keys.sorted().enumerated() {
                if index > 0 { try raw(",") }
                try string(reference)
                try raw(":")
                try coverResolution(state.covers[reference]!)
            }
            try raw("},")
        }
        try raw(#""current":"#)
        try string(orNull: state.current?.rawValue)
        if !state.lookups.isEmpty {
            try raw(#","lookups":{"#)
            for (index, key) in state.lookups.keys.sorted().enumerated() {
                if index > 0 { try raw(",") }
                try string(key)
                try raw(":")
                try lookupAnswer(state.lookups[key]!)
            }
            try raw("}")
        }
        try raw(#","nextStep":"#)
        try integer(state.nextStep)
        try raw(#","redo":"#)
        try historyRefs(state.redo)
        try raw(#","undo":"#)
        try historyRefs(state.undo)
        try raw(#","version":"#)
        try integer(Int64(LibraryState.version))
        try raw("}")
    }

    private mutating func historyRefs(_ refs: [HistoryRef]) throws {
        try raw("[")
        for (index, ref) in refs.enumerated() {
            try raw(index == 0 ? #"{"id":"# : #",{"id":"#)
            try integer(ref.id)
            try raw(#","label":"#)
            try string(ref.label)
            try raw("}")
        }
        try raw("]")
    }

    /// An answer, keys sorted, as `LookupAnswer.encode(to:)` writes it.
    mutating func lookupAnswer(_ answer: LookupAnswer) throws {
        if let album = answer.album {
            try raw(#"{"album":"#)
            try self.album(album)
            try raw(#","at":"#)
        } else {
            try raw(#"{"at":"#)
        }
        try integer(Int64(answer.at.timeIntervalSince1970))
        if let key = answer.cover {
            try raw(#","cover":"#)
            try string(key.fileName)
        }
        if let failed = answer.failed {
            try raw(#","failed":"#)
            try string(failed)
        }
        if !answer.ids.isEmpty {
            try raw(#","ids":"#)
            try textMap(answer.ids)
        }
        if let missed = answer.missed {
            try raw(#","missed":"#)
            try string(missed)
        }
        try raw("}")
    }

    private mutating func coverResolution(_ resolution: CoverResolution) throws {
        try raw("{")
        if let key = resolution.key {
            try raw(#""cover":"#)
            try string(key.fileName)
        }
        if let failure = resolution.failure {
            try raw(resolution.key == nil ? #""failed":"# : #","failed":"#)
            try string(failure)
        }
        try raw("}")
    }
}
