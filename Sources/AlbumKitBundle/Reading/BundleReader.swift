import AlbumKit
import Crypto
import Foundation

/// Reads a bundle (SPEC 3) — an archive file or an unpacked folder — entry by entry, with
/// every check the SPEC asks for, and hands out what it finds as it meets it. Callers pull one
/// item at a time, so at most one entry's bytes are in memory and nothing is ever extracted.
///
/// Hostile entries (links, devices, FIFOs, `..`, absolute or non-UTF-8 names, duplicates),
/// passed limits and damaged streams always stop the reading (``ArchiveEntryReader`` checks
/// the entries and the stream; this reader knows what a bundle holds). Content problems (checksums,
/// cover hashes, the manifest, `albumCount`) stop it too, unless ``Options/collectsProblems``
/// asks to gather them in ``problems`` instead (`verify`). Not `Sendable`: it owns a libarchive handle.
final class BundleReader {
    /// How to read.
    struct Options {
        var limits: Limits
        /// Gather content problems in ``BundleReader/problems`` instead of stopping at the first.
        var collectsProblems = false
        /// Skip the bytes of covers in an uncompressed tar and report where they lie instead,
        /// and skip checksums (the bundle storage backend, which re-reads covers by offset).
        var indexesCovers = false
    }

    /// What the reader found.
    enum Item {
        /// Albums, covers, the state, progress: what an import uses.
        case source(SourceItem)
        /// Where a cover's bytes lie in an uncompressed bundle file (only with `indexesCovers`).
        case coverLocation(CoverKey, offset: Int64, size: Int)
    }

    private typealias Role = BundleEntryRole

    /// The input, as messages name it.
    let input: String
    /// Content problems found so far (only with `collectsProblems`).
    private(set) var problems: [AlbumKitError] = []
    private let archive: ArchiveEntryReader
    private let options: Options
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    private var root = BundleRoot()
    /// The SHA-256 of every file read, by the fingerprint of its path in the archive — but a
    /// cover's whose bytes hash to its name, which its name keeps: the covers are most of a
    /// bundle's files, and a table of their digests grows with the bundle (BENCHMARKS.md).
    private var digests: [TextFingerprint: SHA256Words] = [:]
    private var manifest: (value: BundleManifest, subject: String)?
    private var listed: (count: Int, subject: String)?
    /// The checksum list, as messages name it, once it was read.
    private var checksumsSubject: String?
    /// Lines of the checksum list that name a file not read when the list was: checked at the end.
    private var uncheckedLines: [ChecksumList.Line] = []
    private var reportedBytes: Int64 = -1
    private var pending: [Item] = []
    private var pendingIndex = 0
    /// The album list being handed over, an album at a time, before anything read after it,
    /// and its entry as messages name it.
    private var list: (items: AlbumListItems, subject: String)?
    /// The album list's entry while its text is read as its albums are asked for: counted
    /// against its limit and hashed as it comes.
    private var listText: (entry: ArchiveEntryInfo, limit: (bytes: Int64, key: String)?, size: Int64, hasher: SHA256)?
    private var finished = false

    /// Opens `input`, an archive file or a folder.
    convenience init(_ input: URL, options: Options) throws(AlbumKitError) {
        try self.init(ArchiveEntryReader(contentsOf: input, limits: options.limits), options: options)
    }

    /// Reads the bundle that `archive` is positioned at the start of.
    init(_ archive: ArchiveEntryReader, options: Options) {
        input = archive.input
        self.archive = archive
        self.options = options
    }

    deinit { buffer.deallocate() }

    /// The next item, or nil when the bundle has been read and checked to its end.
    func next() throws(AlbumKitError) -> Item? {
        while true {
            if pendingIndex < pending.count {
                defer { pendingIndex += 1 }
                return pending[pendingIndex]
            }
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            // An album list's albums come before any entry after it is read.
            if list != nil {
                if let album = try list?.items.next() {
                    noteProgress()
                    return .source(album)
                }
                try finishList()
                continue
            }
            if finished { return nil }
            try step()
        }
    }

    // MARK: - Entries

    private func step() throws(AlbumKitError) {
        guard let entry = try archive.next() else {
            try finish()
            finished = true
            return
        }
        let subject = "\(input) entry \(entry.path)"
        let relative = root.locate(entry.entryPath, isFile: entry.kind == .file)
        guard entry.kind == .file else { return }
        let role = Role(relative)
        let limit = limit(for: role)
        if let declared = entry.declaredSize, let limit, declared > limit.bytes {
            throw archive.tooLarge(entry, limit: limit.bytes, limitName: limit.key)
        }
        if options.indexesCovers, try skipForIndex(role, entry: entry) { return }
        if case .checksums = role {
            digests[TextFingerprint(entry.entryPath.description)] = try readChecksums(entry, limit: limit, subject: subject)
        } else if case .list(let json) = role {
            try startList(entry, json: json, limit: limit, subject: subject)
        } else {
            var kept: Data? = role.keepsBytes ? Data(capacity: Int(min(entry.declaredSize ?? 0, limit?.bytes ?? 0))) : nil
            let digest = try readEntry(entry, limit: limit) { chunk in kept?.append(chunk.assumingMemoryBound(to: UInt8.self)) }
            if case .cover(let key) = role, digest == key.digestWords {
                // Its name says its digest (``digest(of:)``).
            } else {
                digests[TextFingerprint(entry.entryPath.description)] = digest
            }
            try handle(role, bytes: kept ?? Data(), digest: digest, relative: relative, subject: subject)
        }
        noteProgress()
    }

    private func limit(for role: Role) -> (bytes: Int64, key: String)? {
        switch role {
        case .cover: (options.limits.coverBytes, "limits.coverBytes")
        case .manifest, .list, .state, .checksums: (options.limits.listBytes, "limits.listBytes")
        case .other, .outside: nil
        }
    }

    /// In index mode: skips a cover of an uncompressed tar (noting where it lies) or an entry
    /// nobody needs. Returns whether the entry was dealt with.
    private func skipForIndex(_ role: Role, entry: ArchiveEntryInfo) throws(AlbumKitError) -> Bool {
        switch role {
        case .cover(let key):
            guard let offset = archive.currentFileOffset, let size = entry.declaredSize else { return false }
            pending.append(.coverLocation(key, offset: offset, size: Int(size)))
        case .other, .outside:
            break
        default:
            return false
        }
        try archive.skip()
        return true
    }

    /// Reads the entry's bytes in chunks, counting them against the limits, hashing them and
    /// handing each chunk to `take`; returns their SHA-256.
    private func readEntry(
        _ entry: ArchiveEntryInfo, limit: (bytes: Int64, key: String)?, _ take: (UnsafeRawBufferPointer) throws(AlbumKitError) -> Void
    ) throws(AlbumKitError) -> SHA256Words {
        var hasher = SHA256()
        var size: Int64 = 0
        while case let count = try readChunk(of: entry, limit: limit, into: buffer, size: &size, hasher: &hasher), count > 0 {
            try take(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
        return SHA256Words(hasher.finalize())
    }

    /// Reads the entry's next bytes into `target`, counting them in `size` against the limit and
    /// hashing them into `hasher`; returns how many, 0 at the entry's end.
    private func readChunk(
        of entry: ArchiveEntryInfo, limit: (bytes: Int64, key: String)?, into target: UnsafeMutableRawBufferPointer,
        size: inout Int64, hasher: inout SHA256
    ) throws(AlbumKitError) -> Int {
        let count = try archive.read(into: target)
        size += Int64(count)
        if let limit, size > limit.bytes { throw archive.tooLarge(entry, limit: limit.bytes, limitName: limit.key) }
        hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: target[0..<count]))
        return count
    }

    /// Starts handing over the album list in `entry`: a JSON list is read as its albums are
    /// asked for (the list of 100 000 collectors' albums is 196 MB; BENCHMARKS.md), a property
    /// list whole.
    private func startList(_ entry: ArchiveEntryInfo, json: Bool, limit: (bytes: Int64, key: String)?, subject: String) throws(AlbumKitError) {
        if let listed { throw AlbumKitError(.unreadableInput, "\(subject): the bundle already has an album list (\(listed.subject))") }
        listText = (entry, limit, 0, SHA256())
        let read: (UnsafeMutableRawBufferPointer) throws -> Int = { [unowned self] target in try readListText(into: target) }
        let items = json
            ? try AlbumListSource(format: JSONFormat()).albumList(reading: read, input: subject, label: subject)
            : try AlbumListSource(format: PropertyListFormat()).albumList(reading: read, input: subject, label: subject)
        list = (items, subject)
    }

    /// The album list's next bytes (``readChunk(of:limit:into:size:hasher:)``).
    private func readListText(into target: UnsafeMutableRawBufferPointer) throws(AlbumKitError) -> Int {
        guard var text = listText else { return 0 }
        defer { listText = text }
        return try readChunk(of: text.entry, limit: text.limit, into: target, size: &text.size, hasher: &text.hasher)
    }

    /// The album list was handed over whole, its entry read to its end: its digest is kept for
    /// the checksum list and its count checked against the manifest's.
    private func finishList() throws(AlbumKitError) {
        guard let (items, subject) = list else { return }
        list = nil
        if let text = listText {
            listText = nil
            digests[TextFingerprint(text.entry.entryPath.description)] = SHA256Words(text.hasher.finalize())
        }
        listed = (items.handedOver, subject)
        try checkAlbumCount()
        noteProgress()
    }

    /// Reads the checksum list, checking each line as it arrives against the file it names
    /// when that was read (the list usually comes last); returns the list's own SHA-256. A line
    /// that is not a `sha256sum` line ends the list's reading: it is a problem of its own.
    private func readChecksums(_ entry: ArchiveEntryInfo, limit: (bytes: Int64, key: String)?, subject: String) throws(AlbumKitError) -> SHA256Words {
        checksumsSubject = subject
        var list = ChecksumList(subject: subject)
        var unreadable: AlbumKitError?
        let digest = try readEntry(entry, limit: limit) { chunk in
            guard unreadable == nil else { return }
            do throws(AlbumKitError) { try list.read(chunk, check) } catch { unreadable = error }
        }
        if unreadable == nil {
            do throws(AlbumKitError) { try list.finish(check) } catch { unreadable = error }
        }
        if let unreadable { try report(unreadable) }
        return digest
    }

    /// Checks a line of the checksum list against the file it names, or keeps it for the end
    /// when that file was not read yet.
    private func check(_ line: ChecksumList.Line) throws(AlbumKitError) {
        guard !options.indexesCovers, line.path.description != ChecksumList.entryName else { return }
        guard let actual = digest(of: line) else { return uncheckedLines.append(line) }
        try compare(line, with: actual)
    }

    /// The SHA-256 of the file `line` names, when it was read: remembered, or — for a file read
    /// and not remembered, which was a cover whose bytes hash to its name — its name's.
    private func digest(of line: ChecksumList.Line) -> SHA256Words? {
        let path = root.entryPath(of: line.path)
        if let digest = digests[TextFingerprint(path.description)] { return digest }
        guard archive.hasMet(path) else { return nil }
        return CoverKey(fileName: path.lastComponent)?.digestWords
    }

    private func compare(_ line: ChecksumList.Line, with actual: SHA256Words) throws(AlbumKitError) {
        if actual != line.digest {
            try report(AlbumKitError(.unreadableInput, "\(input) entry \(line.path): its SHA-256 is \(actual), but \(ChecksumList.entryName) line \(line.number) says \(line.digest)"))
        }
    }

    private func handle(_ role: Role, bytes: Data, digest: SHA256Words, relative: EntryPath?, subject: String) throws(AlbumKitError) {
        switch role {
        case .manifest:
            do {
                manifest = (try BundleManifest.parse(bytes, subject: subject), subject)
                try checkAlbumCount()
            } catch {
                try report(error)
            }
        case .state:
            do {
                pending.append(.source(.state(try JSONDecoder().decode(StateFile.self, from: bytes))))
            } catch {
                try report(AlbumKitError(.unreadableInput, "\(subject): not a valid state (\(error))"))
            }
        case .cover(let key):
            guard digest == key.digestWords else {
                return try report(AlbumKitError(.unreadableInput, "\(subject): the cover's bytes hash to \(digest), not to its name"))
            }
            pending.append(.source(.cover(path: relative?.description ?? key.bundlePath, bytes: bytes)))
        case .checksums, .list, .other, .outside:
            // The checksum list and the album list are read as they arrive
            // (``readChecksums(_:limit:subject:)``, ``startList(_:json:limit:subject:)``).
            break
        }
    }

    private func checkAlbumCount() throws(AlbumKitError) {
        guard let manifest, let declared = manifest.value.albumCount, let listed, declared != listed.count else { return }
        try report(AlbumKitError(.unreadableInput, "\(manifest.subject): albumCount is \(declared), but \(listed.subject) lists \(listed.count) albums"))
    }

    /// The checks that need the whole bundle: an album list exists; every checksum line matches.
    private func finish() throws(AlbumKitError) {
        if listed == nil {
            let place = root.folder.map { " (looked inside \($0)/)" } ?? ""
            try report(AlbumKitError(.unreadableInput, "\(input): the bundle holds no albums.json or albums.plist\(place)"))
        }
        for line in uncheckedLines {
            guard let actual = digest(of: line) else {
                try report(AlbumKitError(.unreadableInput, "\(checksumsSubject ?? ChecksumList.entryName) line \(line.number): names \(line.path), which the bundle lacks"))
                continue
            }
            try compare(line, with: actual)
        }
        noteProgress(force: true)
    }

    private func report(_ problem: AlbumKitError) throws(AlbumKitError) {
        guard options.collectsProblems else { throw problem }
        problems.append(problem)
    }

    /// Adds a progress item every MiB read, and at the end.
    private func noteProgress(force: Bool = false) {
        let total = archive.storedSize
        let read = total == nil ? archive.unpackedBytes : archive.storedBytesRead
        guard force || read - reportedBytes >= 1 << 20 else { return }
        reportedBytes = read
        pending.append(.source(.progress(bytesRead: read, totalBytes: total)))
    }
}
