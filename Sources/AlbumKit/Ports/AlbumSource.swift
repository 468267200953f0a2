import Foundation

/// Something `import` reads albums from: a JSON list, a property list, a bundle, an iTunes
/// library, a folder of audio files.
///
/// ## Implementation requirements
/// - ``match(_:)`` decides from the input's name, kind and first bytes, cheaply; it may peek
///   into a folder or the first entries of an archive, but never reads an input whole. It
///   says ``SourceMatch/specific`` only for content that is this source's own (a header, a
///   key no other format has), so that a specific source wins over a generic one.
/// - ``items(from:context:)`` streams: it yields albums (and the cover bytes they name) as it
///   reads them and never holds a whole archive or file in memory beyond `context.limits`.
///   It stops with an ``AlbumKitError`` that names the input and the entry, row, line or
///   track at the first problem, and writes nothing anywhere.
/// - Cover bytes are yielded as ``SourceItem/cover(path:bytes:)`` under
///   `covers/<sha256>.<ext>` (see ``CoverKey/init(bytes:fileExtension:)`` and
///   ``ImageKind``), and the album names that path as its `coverUrl`. Files outside the
///   input (art beside a track) are read only when `context.fileRoots` permits them.
/// - Ids come from the source's own identity, prefixed (`discogs:123`), so that importing
///   the same input twice gives only duplicates.
/// - A source of files another tool wrote says so (``readsOtherToolsFiles``) and yields a
///   record it cannot make into an album as ``SourceItem/invalid(_:label:reason:)`` rather than
///   stopping: one odd row never refuses a whole collection (SPEC 9).
public protocol AlbumSource: Sendable {
    /// A short name for `albumkit plugins` and `import --format` ("json", "bundle").
    var name: String { get }
    /// One line for `albumkit plugins`.
    var summary: String { get }
    /// The settings it reads (`plugins.<name>.*`), declared so the loader can check them.
    var settings: [SettingDeclaration] { get }
    /// Where it comes from, for `albumkit plugins`.
    var origin: AdapterOrigin { get }
    /// Whether its inputs are files another tool wrote (an export, a database, tagged audio),
    /// not AlbumKit's own lists and bundles. `import` repairs their albums' text (a control
    /// character becomes one space) and skips, naming it, an album that still breaks the field
    /// rules, where an album of AlbumKit's own refuses its whole input (SPEC 9).
    var readsOtherToolsFiles: Bool { get }
    /// Whether it yields a cover only once it has checked that the bytes hash to the cover's
    /// name (a bundle reader that hashes every entry for its checksum list does): `import` then
    /// takes the cover's key from its name instead of hashing the bytes a second time. A source
    /// that says so and yields a cover whose bytes hash to another name stores it under the
    /// wrong name; the default (false) has every cover hashed as it arrives.
    var checksCoverNames: Bool { get }
    /// Whether its inputs may carry cover bytes (``SourceItem/cover(path:bytes:)``). When no
    /// input of an import may, `import` runs each album through the stages as it is read,
    /// rather than after the last input (an album may name a cover a later input carries); a
    /// source that says it carries none and yields a cover fails the import.
    var carriesCovers: Bool { get }
    /// How well this source recognises `input`.
    func match(_ input: SourceInput) -> SourceMatch
    /// The albums and covers in `input`, in the order they are read.
    func items(from input: SourceInput, context: SourceContext) -> AsyncThrowingStream<SourceItem, any Error>
    /// What `verify PATH` reports for `input`: every problem found, each one sentence naming
    /// the entry, row or line. The default reads every item, checks every album against the
    /// field rules, ids used twice and cover paths the input lacks, and ends at a reading error.
    func problems(in input: SourceInput, context: SourceContext) async throws -> [String]
}

extension AlbumSource {
    /// No summary.
    public var summary: String { "" }

    /// No settings.
    public var settings: [SettingDeclaration] { [] }

    /// AlbumKit's own lists and bundles: an invalid album refuses the input.
    public var readsOtherToolsFiles: Bool { false }

    /// Its covers are hashed as they arrive.
    public var checksCoverNames: Bool { false }

    /// Its inputs may carry covers.
    public var carriesCovers: Bool { true }

    /// The module its type is declared in.
    public var origin: AdapterOrigin { AdapterOrigin(of: self) }

    /// Reads every item and checks what it read; a reading error ends the list.
    public func problems(in input: SourceInput, context: SourceContext) async throws -> [String] {
        var problems: [String] = []
        var albums: [(album: Album, label: String)] = []
        var covers = Set<String>()
        var current: AlbumID?
        do {
            for try await item in items(from: input, context: context) {
                switch item {
                case .album(let record, let label):
                    do {
                        albums.append((try record.validated(newID: .generate(), label: label.description), label.description))
                    } catch {
                        problems.append(error.description)
                    }
                case .invalid(_, let label, let reason): problems.append("\(label): \(reason)")
                case .cover(let path, _): covers.insert(path)
                case .state(let state): current = state.current
                case .warning, .progress: break
                }
            }
        } catch let error as AlbumKitError {
            return problems + [error.description]
        }
        return problems + (await LibraryVerifier.problems(albums: albums, current: current, stateLabel: "\(input.path) state") { covers.contains($0) })
    }
}

/// How well an ``AlbumSource`` recognises an input. The registry picks the best; among
/// equals, the one registered first.
public enum SourceMatch: Int, Sendable, Comparable {
    /// Not this source's input.
    case none = 0
    /// A name ending or a syntax this source reads, but others may too (`.json`, `[`, a tar).
    case generic = 1
    /// Content that is this source's own (the Discogs header, an iTunes `Tracks` key).
    case specific = 2

    public static func < (lhs: SourceMatch, rhs: SourceMatch) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// An input as sources see it before reading: where it is, whether it is a folder, and its
/// first bytes.
public struct SourceInput: Sendable {
    /// How many first bytes ``prefix`` holds at most.
    public static let prefixLength = 4096

    /// The file or folder.
    public let url: URL
    /// Whether it is a folder.
    public let isFolder: Bool
    /// The first bytes of a file (up to ``prefixLength``); empty for a folder.
    public let prefix: Data

    /// An input with these facts (tests and sources that wrap another).
    public init(url: URL, isFolder: Bool, prefix: Data) {
        self.url = url
        self.isFolder = isFolder
        self.prefix = prefix
    }

    /// Looks at the file or folder at `url`; an error names it when it does not exist or
    /// cannot be read.
    public init(at url: URL) throws(AlbumKitError) {
        var folder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &folder) else {
            throw AlbumKitError(.fileSystem, "\(url.path): no such file or folder")
        }
        var prefix = Data()
        if !folder.boolValue {
            guard let handle = FileHandle(forReadingAtPath: url.path) else {
                throw AlbumKitError(.fileSystem, "\(url.path): cannot be read")
            }
            prefix = (try? handle.read(upToCount: Self.prefixLength)) ?? Data()
            try? handle.close()
        }
        self.init(url: url, isFolder: folder.boolValue, prefix: prefix)
    }

    /// The path, as messages name the input.
    public var path: String { url.path }
    /// The last path component (`Library.xml`).
    public var name: String { url.lastPathComponent }
    /// The lower-cased name ending after the last dot (`xml`), or "".
    public var pathExtension: String { url.pathExtension.lowercased() }
}

/// What a source reads with: the limits, where files outside the input may be read from,
/// and its own settings.
public struct SourceContext: Sendable {
    /// Reading limits (`limits.*`).
    public var limits: Limits
    /// Folders outside the input that files (art beside tracks) may be read from
    /// (`covers.fileRoots`).
    public var fileRoots: FileRoots
    /// The source's own settings (`plugins.<name>.*`).
    public var settings: PluginSettings

    /// A context with these limits, roots and settings.
    public init(limits: Limits = Limits(), fileRoots: FileRoots = FileRoots([]), settings: PluginSettings = PluginSettings()) {
        self.limits = limits
        self.fileRoots = fileRoots
        self.settings = settings
    }
}

/// One thing an ``AlbumSource`` read.
public enum SourceItem: Sendable {
    /// An album as the input gives it, with a label that names it in messages.
    case album(AlbumRecord, label: AlbumLabel)
    /// A record that cannot be an album (no title, a row the export's columns do not fit), with
    /// what could be read of it, its label and why: an import skips and reports it, or refuses
    /// the input with `--strict`.
    case invalid(AlbumRecord, label: AlbumLabel, reason: String)
    /// Cover bytes at a bundle-relative `path` (`covers/<sha256>.<ext>`), which albums name
    /// as their `coverUrl`.
    case cover(path: String, bytes: Data)
    /// The memento and history a bundle carries (`state.json`); `restore` adopts it, `import`
    /// uses only its resolved cover references.
    case state(StateFile)
    /// A problem that does not stop the import (a referenced cover the bundle lacks, tracks
    /// skipped for having no album).
    case warning(String)
    /// How far the source is: bytes read so far and, when known, in all.
    case progress(bytesRead: Int64, totalBytes: Int64?)
}
