import Foundation

/// Albums a change adds at the end of the library — an import's — read in order, a run at a
/// time, as a backend saves them (``StoredChange/Albums/appending(_:after:)``): a large
/// import is never held whole unless the backend must hold the whole library to write it.
///
/// Where the albums wait is the library's business, not the backend's (the import keeps them
/// in a file of its own that has no name and goes when the last copy of the value does).
public struct AppendedAlbums: Sendable, Hashable {
    /// The first album's id, and the last's (nil when there are none).
    public let first: AlbumID?
    public let last: AlbumID?
    private let albums: Spilled<Album>
    /// Albums replaced after they were written, by their place in the run (an import whose later
    /// album replaces an earlier one of its own; rare, so held in memory).
    private let replaced: [Int: Album]

    /// `albums`, to append in this order.
    public init(_ albums: some Sequence<Album>) throws {
        try self.init(albums, in: FileManager.default.temporaryDirectory)
    }

    /// `albums`, kept in a scratch file made in `folder` (or the system's temporary folder when
    /// `folder` does not exist).
    package init(_ albums: some Sequence<Album>, in folder: URL) throws {
        var writer = try Writer(in: folder)
        for album in albums { try writer.append(album) }
        self = try writer.finish()
    }

    private init(albums: Spilled<Album>, first: AlbumID?, last: AlbumID?, replaced: [Int: Album]) {
        self.albums = albums
        self.first = first
        self.last = last
        self.replaced = replaced
    }

    /// How many albums are appended.
    public var count: Int { albums.count }

    /// A reader of the albums, from the first.
    public func reader() -> Reader { Reader(records: albums.reader(), replaced: replaced) }

    /// A reader of the albums as they were first written, before any replacement (what an
    /// import reports it added).
    package func readerAsWritten() -> Reader { Reader(records: albums.reader(), replaced: [:]) }

    /// Every album, in order: for a backend that must hold the whole library to write it (a
    /// property list), and for tests.
    public func all() throws -> [Album] {
        var all: [Album] = []
        all.reserveCapacity(count)
        var reader = reader()
        while let album = try reader.next() { all.append(album) }
        return all
    }

    /// The same run of albums (the same one made, with the same replacements).
    public static func == (left: AppendedAlbums, right: AppendedAlbums) -> Bool {
        left.albums.isSame(as: right.albums) && left.replaced == right.replaced
    }

    public func hash(into hasher: inout Hasher) { albums.hash(into: &hasher) }

    /// Reads the albums in order.
    public struct Reader {
        private var records: Spilled<Album>.Reader
        private let replaced: [Int: Album]
        private var place = 0

        fileprivate init(records: Spilled<Album>.Reader, replaced: [Int: Album]) {
            self.records = records
            self.replaced = replaced
        }

        /// The next album, or nil after the last.
        public mutating func next() throws -> Album? {
            guard let album = try records.next() else { return nil }
            defer { place += 1 }
            return replaced[place] ?? album
        }

        /// The next albums, at most `size` of them (none after the last).
        public mutating func next(upTo size: Int) throws -> [Album] {
            var run: [Album] = []
            run.reserveCapacity(max(size, 1))
            while run.count < max(size, 1), let album = try next() { run.append(album) }
            return run
        }
    }

    /// Writes a run an album at a time.
    package struct Writer {
        private var albums: Spilled<Album>.Writer
        private var first: AlbumID?
        private var last: AlbumID?
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
        }

        /// Makes the album at `place` (0-based, in the run) `album`, which has the same id.
        package mutating func replace(at place: Int, with album: Album) {
            precondition(place < count, "only an album already appended can be replaced")
            replaced[place] = album
        }

        /// The run, once its last album is written.
        package consuming func finish() throws -> AppendedAlbums {
            AppendedAlbums(albums: try albums.finish(), first: first, last: last, replaced: replaced)
        }
    }
}
