/// Every error the core throws: a kind to match on and a sentence that names the input.
///
/// Modelled on async-http-client's `HTTPClientError`: callers compare ``kind`` against the
/// static members of ``Kind``; people read ``description``.
public struct AlbumKitError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, as a value callers can compare.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        public var description: String { name }

        /// An album field broke a rule of SPEC section 1.
        public static let invalidAlbum = Kind("invalidAlbum")
        /// A file could not be parsed, or had the wrong shape.
        public static let unreadableInput = Kind("unreadableInput")
        /// A file or folder could not be read or written.
        public static let fileSystem = Kind("fileSystem")
        /// A position or id that names no album.
        public static let noSuchAlbum = Kind("noSuchAlbum")
        /// A cover reference that names no stored cover.
        public static let noSuchCover = Kind("noSuchCover")
        /// A configuration file, variable or flag that is unknown or has a bad value.
        public static let configuration = Kind("configuration")
        /// Another writer held the library lock for longer than the timeout.
        public static let lockTimeout = Kind("lockTimeout")
        /// The library does not exist yet, or exists when it must not.
        public static let libraryState = Kind("libraryState")
        /// Nothing to undo or redo.
        public static let historyEmpty = Kind("historyEmpty")
        /// No adapter can read or serve the request.
        public static let unsupported = Kind("unsupported")
        /// A limit from `limits.*` was passed.
        public static let limitExceeded = Kind("limitExceeded")
        /// A database server could not be reached, or refused the login.
        public static let connection = Kind("connection")
        /// An import stage failed an album.
        public static let stageFailed = Kind("stageFailed")
        /// A plugin (a child process) failed: it crashed, hung, or broke the protocol.
        public static let pluginFailed = Kind("pluginFailed")
        /// A query, sort key or output template that does not parse (a usage error).
        public static let invalidQuery = Kind("invalidQuery")
        /// The system could not give a piece of work (a libarchive handle) its memory.
        public static let outOfMemory = Kind("outOfMemory")
        /// A reference that names more than one album where one is needed.
        public static let ambiguousAlbum = Kind("ambiguousAlbum")
    }

    /// What went wrong.
    public let kind: Kind
    /// One sentence naming the input and the problem.
    public let description: String

    /// Makes an error of `kind`; prefer the static constructors below.
    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    /// `album`'s `field` breaks a rule: "album 'Low': field 'year' must be …".
    public static func invalidAlbum(_ album: String, field: String, _ problem: String) -> Self {
        Self(.invalidAlbum, "album \(album): field '\(field)' \(problem)")
    }
    /// `input` cannot be parsed: "backup.tgz entry albums.json: not a json album list …".
    public static func unreadable(_ input: String, _ problem: String) -> Self {
        Self(.unreadableInput, "\(input): \(problem)")
    }
    /// The system refused `operation` on `path` with `code` (an `errno`), in the system's words:
    /// "/x/covers: cannot open: Permission denied".
    public static func fileSystem(_ path: String, _ operation: String, errno code: Int32) -> Self {
        Self(.fileSystem, "\(path): cannot \(operation): \(String(cString: strerror(code)))")
    }
    /// `reference` names no album of the `count` the library holds.
    public static func noSuchAlbum(_ reference: String, count: Int) -> Self {
        Self(.noSuchAlbum, count == 0
            ? "no album \(reference): the library is empty"
            : "no album \(reference): positions run from 1 to \(count)")
    }
    /// The cover `reference` names is not stored; `problem` says why it is missing.
    public static func noSuchCover(_ reference: String, _ problem: String) -> Self {
        Self(.noSuchCover, "\(reference): \(problem)")
    }
    /// A configuration file, variable or flag that is wrong, as `message` says.
    public static func configuration(_ message: String) -> Self { Self(.configuration, message) }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
