import Foundation

/// The albums an import appends, written to a scratch file as the import merges them and read
/// back a run at a time as the backend saves them (what ``AlbumRun`` holds for a large change):
/// 100 000 albums are never held whole unless the backend must hold the whole library.
package struct SpilledRun: Sendable, Hashable {
    /// The first album's id, and the last's (nil when there are none).
    package let first: AlbumID?
    package let last: AlbumID?
    /// Whether an album of the run names a cover (has a `coverUrl`).
    package let namesCovers: Bool
    private let albums: Spilled<Album>
    /// Albums replaced after they were written, by their place in the run (an import whose later
    /// album replaces an earlier one of its own; rare, so held in memory).
    private let replaced: [Int: Album]

    /// `albums`, written to a scratch file made in `folder` (or the system's temporary folder
    /// when `folder` does not exist).
    package init(_ albums: some Sequence<Album>, in folder: URL) throws {
        var writer = try Writer(in: folder)
        for album in albums { try writer.append(album) }
        self = try writer.finish()
    }

    private init(albums: Spilled<Album>, first: AlbumID?, last: AlbumID?, namesCovers: Bool, replaced: [Int: Album]) {
        self.albums = albums
        self.namesCovers = namesCovers
        self.first = first
        self.last = last
        self.replaced = replaced
    }

    /// How many albums are appended.
    package var count: Int { albums.count }

    /// A reader of the albums, from the first.
    package func reader() -> Reader { Reader(records: albums.reader(), replaced: replaced) }

    /// A reader of the albums as they were first written, before any replacement (what an
    /// import reports it added).
    package func readerAsWritten() -> Reader { Reader(records: albums.reader(), replaced: [:]) }

    /// The same run of albums (the same one made, with the same replacements).
    package static func == (left: SpilledRun, right: SpilledRun) -> Bool {
        left.albums.isSame(as: right.albums) && left.replaced == right.replaced
    }

    package func hash(into hasher: inout Hasher) { albums.hash(into: &hasher) }

    /// Reads the albums in order.
    package struct Reader {
        private var records: Spilled<Album>.Reader
        private let replaced: [Int: Album]
        private var place = 0

        fileprivate init(records: Spilled<Album>.Reader, replaced: [Int: Album]) {
            self.records = records
            self.replaced = replaced
        }

        /// The next album, or nil after the last.
        package mutating func next() throws -> Album? {
            guard let album = try records.next() else { return nil }
            defer { place += 1 }
            return replaced[place] ?? album
        }

    }

    /// Writes a run an album at a time.
    package struct Writer {
        private var albums: Spilled<Album>.Writer
        private var first: AlbumID?
        private var last: AlbumID?
        private var namesCovers = false
        private var replaced: [Int: Album] = [:]

        /// A run in a new scratch file in `folder` (see ``ScratchFile/init(in:)``).
        package init(in folder: URL) throws {
            albums = try Spilled.Writer(in: folder)
        }

        /// How many albums were appended.
        package var count: Int { albums.count }

        /// Appends `album`.
        package mutating func append(_ album: Album) throws {
            try albums.append(album)
            if first == nil { first = album.id }
            last = album.id
            if album.coverUrl != nil { namesCovers = true }
        }

        /// Makes the album at `place` (0-based, in the run) `album`, which has the same id.
        package mutating func replace(at place: Int, with album: Album) {
            precondition(place < count, "only an album already appended can be replaced")
            replaced[place] = album
            if album.coverUrl != nil { namesCovers = true }
        }

        /// The run, once its last album is written.
        package consuming func finish() throws -> SpilledRun {
            SpilledRun(albums: try albums.finish(), first: first, last: last, namesCovers: namesCovers, replaced: replaced)
        }
    }
}
