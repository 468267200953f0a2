import AlbumKit
import Crypto
import Foundation

/// Reads a bundle (SPEC 3) — an archive file or an unpacked folder — entry by entry, with
/// every check the SPEC asks for, and hands out what it finds as it meets it. Callers pull one
/// item at a time, so at most one entry's bytes are in memory and nothing is ever extracted.
///
/// Hostile entries (links, devices, FIFOs, `..`, absolute or non-UTF-8 names, duplicates),
/// passed limits and damaged streams always stop the reading. Content problems (checksums,
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

    private enum Root { case undecided, top, folder(String) }
    private enum Role {
        case manifest, list(json: Bool), state, checksums, cover(CoverKey), other, outside

        /// Whether the reader needs the entry's bytes, not just their hash.
        var keepsBytes: Bool {
            switch self {
            case .other, .outside: false
            default: true
            }
        }
    }

    /// The input, as messages name it.
    let input: String
    /// Content problems found so far (only with `collectsProblems`).
    private(set) var problems: [AlbumKitError] = []
    private let archive: ArchiveReader
    private let options: Options
    private let totalStoredBytes: Int64?
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)
    private var root = Root.undecided
    private var entryCount = 0
    private var seen = Set<EntryPath>()
    private var digests: [EntryPath: String] = [:]
    private var manifest: (value: BundleManifest, subject: String)?
    private var listed: (count: Int, subject: String)?
    private var checksums: (value: ChecksumList, subject: String)?
    private var unpackedBytes: Int64 = 0
    private var reportedBytes: Int64 = -1
    private var pending: [Item] = []
    private var pendingIndex = 0
    private var finished = false

    /// Opens `input`, an archive file or a folder.
    init(_ input: URL, options: Options) throws(AlbumKitError) {
        self.input = input.path
        self.options = options
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: input.path, isDirectory: &isFolder) else {
            throw AlbumKitError(.fileSystem, "\(input.path): no such file or folder")
        }
        archive = isFolder.boolValue ? try ArchiveReader(folder: input.path) : try ArchiveReader(file: input.path)
        totalStoredBytes = isFolder.boolValue ? nil : (try? FileManager.default.attributesOfItem(atPath: input.path)[.size] as? Int64) ?? nil
    }

    deinit { buffer.deallocate() }

    /// The next item, or nil when the bundle has been read and checked to its end.
    func next() throws(AlbumKitError) -> Item? {
        while pendingIndex == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            if finished { return nil }
            try step()
        }
        defer { pendingIndex += 1 }
        return pending[pendingIndex]
    }

    // MARK: - Entries

    private func step() throws(AlbumKitError) {
        guard let entry = try archive.nextEntry(number: entryCount + 1) else {
            try finish()
            finished = true
            return
        }
        entryCount += 1
        let path = try EntryPath(entry, archive: input)
        let subject = "\(input) entry \(path)"
        if case .refused(let what) = entry.kind {
            throw AlbumKitError(.unreadableInput, "\(subject): is \(what); a bundle may hold only files and folders")
        }
        let relative = locate(path, isDirectory: entry.kind == .directory)
        guard entry.kind == .file else { return }
        guard seen.insert(path).inserted else {
            throw AlbumKitError(.unreadableInput, "\(subject): the archive holds this entry twice")
        }
        let role = role(of: relative)
        let limit = limit(for: role)
        if let declared = entry.declaredSize { try checkSize(declared, total: unpackedBytes + declared, limit: limit, subject: subject) }
        if options.indexesCovers, try skipForIndex(role, entry: entry, path: path) { return }
        let (bytes, digest) = try readEntry(path, keep: role.keepsBytes, limit: limit, subject: subject, expected: entry.declaredSize)
        if let relative { digests[relative] = digest }
        try handle(role, bytes: bytes, digest: digest, relative: relative, subject: subject)
        noteProgress()
    }

    /// The entry's path inside the bundle: the whole path, or the path below the one top-level
    /// folder the bundle sits in (decided by the first entry); nil for entries outside it.
    private func locate(_ path: EntryPath, isDirectory: Bool) -> EntryPath? {
        guard let top = path.components.first else { return nil }
        if case .undecided = root {
            root = (path.components.count == 1 && !isDirectory) || top == "covers" ? .top : .folder(top)
        }
        guard case .folder(let folder) = root else { return path }
        guard top == folder, path.components.count > 1 else { return nil }
        return path.droppingFirst
    }

    private func role(of relative: EntryPath?) -> Role {
        guard let relative else { return .outside }
        switch relative.components {
        case ["manifest.json"]: return .manifest
        case ["albums.json"]: return .list(json: true)
        case ["albums.plist"]: return .list(json: false)
        case ["state.json"]: return .state
        case [ChecksumList.entryName]: return .checksums
        case let parts where parts.count == 2 && parts[0] == "covers":
            return CoverKey(fileName: parts[1]).map(Role.cover) ?? .other
        default: return .other
        }
    }

    private func limit(for role: Role) -> (bytes: Int64, key: String)? {
        switch role {
        case .cover: (options.limits.coverBytes, "limits.coverBytes")
        case .manifest, .list, .state, .checksums: (options.limits.listBytes, "limits.listBytes")
        case .other, .outside: nil
        }
    }

    private func checkSize(_ size: Int64, total: Int64, limit: (bytes: Int64, key: String)?, subject: String) throws(AlbumKitError) {
        if let limit, size > limit.bytes {
            throw AlbumKitError(.limitExceeded, "\(subject): is more than \(limit.bytes) bytes, the limit (\(limit.key)); nothing was written")
        }
        if total > options.limits.archiveBytes {
            throw AlbumKitError(.limitExceeded, "\(subject): the archive unpacks to more than \(options.limits.archiveBytes) bytes, the limit (limits.archiveBytes); nothing was written")
        }
    }

    /// In index mode: skips a cover of an uncompressed tar (noting where it lies) or an entry
    /// nobody needs. Returns whether the entry was dealt with.
    private func skipForIndex(_ role: Role, entry: ArchiveEntry, path: EntryPath) throws(AlbumKitError) -> Bool {
        switch role {
        case .cover(let key) where archive.isUncompressedFile:
            guard let size = entry.declaredSize else { return false }
            pending.append(.coverLocation(key, offset: archive.dataOffset, size: Int(size)))
        case .other, .outside:
            break
        default:
            return false
        }
        try archive.skip(entry: path.description)
        unpackedBytes += entry.declaredSize ?? 0
        return true
    }

    /// Reads the entry's bytes in chunks, counting them against the limits and hashing them;
    /// keeps them only when `keep`.
    private func readEntry(
        _ path: EntryPath, keep: Bool, limit: (bytes: Int64, key: String)?, subject: String, expected: Int64?
    ) throws(AlbumKitError) -> (Data?, String) {
        var hasher = SHA256()
        var kept: Data? = keep ? Data(capacity: Int(min(expected ?? 0, limit?.bytes ?? 0))) : nil
        var size: Int64 = 0
        while true {
            let count = try archive.read(into: buffer, entry: path.description)
            if count == 0 { break }
            size += Int64(count)
            unpackedBytes += Int64(count)
            try checkSize(size, total: unpackedBytes, limit: limit, subject: subject)
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            hasher.update(bufferPointer: chunk)
            kept?.append(chunk.assumingMemoryBound(to: UInt8.self))
        }
        return (kept, SHA256Digest.hex(hasher.finalize()))
    }

    private func handle(_ role: Role, bytes: Data?, digest: String, relative: EntryPath?, subject: String) throws(AlbumKitError) {
        let bytes = bytes ?? Data()
        switch role {
        case .manifest:
            do {
                manifest = (try BundleManifest.parse(bytes, subject: subject), subject)
                try checkAlbumCount()
            } catch {
                try report(error)
            }
        case .list(let json):
            if let listed { throw AlbumKitError(.unreadableInput, "\(subject): the bundle already has an album list (\(listed.subject))") }
            let items = json
                ? try AlbumListSource(format: JSONFormat()).albumItems(in: bytes, input: subject, label: subject)
                : try AlbumListSource(format: PropertyListFormat()).albumItems(in: bytes, input: subject, label: subject)
            listed = (items.count, subject)
            pending += items.map(Item.source)
            try checkAlbumCount()
        case .state:
            do {
                pending.append(.source(.state(try JSONDecoder().decode(StateFile.self, from: bytes))))
            } catch {
                try report(AlbumKitError(.unreadableInput, "\(subject): not a valid state (\(error))"))
            }
        case .checksums:
            do {
                checksums = (try ChecksumList(parsing: bytes, subject: subject), subject)
            } catch {
                try report(error)
            }
        case .cover(let key):
            guard digest == key.sha256 else {
                return try report(AlbumKitError(.unreadableInput, "\(subject): the cover's bytes hash to \(digest), not to its name"))
            }
            pending.append(.source(.cover(path: relative?.description ?? key.bundlePath, bytes: bytes)))
        case .other, .outside:
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
            let place = if case .folder(let folder) = root { " (looked inside \(folder)/)" } else { "" }
            try report(AlbumKitError(.unreadableInput, "\(input): the bundle holds no albums.json or albums.plist\(place)"))
        }
        if let checksums, !options.indexesCovers {
            for line in checksums.value.lines where line.path.components != [ChecksumList.entryName] {
                guard let actual = digests[line.path] else {
                    try report(AlbumKitError(.unreadableInput, "\(checksums.subject) line \(line.number): names \(line.path), which the bundle lacks"))
                    continue
                }
                if actual != line.digest {
                    try report(AlbumKitError(.unreadableInput, "\(input) entry \(line.path): its SHA-256 is \(actual), but \(ChecksumList.entryName) line \(line.number) says \(line.digest)"))
                }
            }
        }
        noteProgress(force: true)
    }

    private func report(_ problem: AlbumKitError) throws(AlbumKitError) {
        guard options.collectsProblems else { throw problem }
        problems.append(problem)
    }

    /// Adds a progress item every MiB read, and at the end.
    private func noteProgress(force: Bool = false) {
        let read = totalStoredBytes == nil ? unpackedBytes : archive.storedBytesRead
        guard force || read - reportedBytes >= 1 << 20 else { return }
        reportedBytes = read
        pending.append(.source(.progress(bytesRead: read, totalBytes: totalStoredBytes)))
    }
}
