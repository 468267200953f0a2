import AlbumKit
import Foundation

/// Reads an archive file or a folder entry by entry, as a stream, with the checks every
/// reader of untrusted archives needs — the one entry reader behind the bundle source, for
/// plugins that read other things out of archives (audio files, exports).
///
/// Archives: tar (ustar, pax, GNU), zip, 7z, rar v4 and v5, cpio and ISO 9660, under at most
/// one compression layer (gzip, bzip2, xz, zstd or lz4, told by the first bytes). Folders are
/// walked with the same checks.
///
/// Implementation notes:
/// - Hostile entries stop the reading with an ``AlbumKitError`` naming the archive and the
///   entry: links (symbolic or hard, or a folder's file with several hard links), devices,
///   FIFOs, sockets, `..`, absolute names, names that are not UTF-8 or hold `\` or control
///   characters, and a file path met twice. Nothing is ever extracted or followed.
/// - `limits.archiveBytes` bounds what the archive unpacks to: every entry's bytes (read,
///   skipped or declared), and for a compressed file the whole unpacked stream.
/// - A compressed stream is read and checked to its very end (CRCs, lengths, checks, and no
///   data after it) before ``next()`` returns nil; an archive whose compressed payload is
///   compressed again is refused rather than unpacked twice, so memory stays bounded.
/// - Entries come in archive order (folder walks: directory order). Unread bytes of an entry
///   are skipped by the next ``next()``. Folder entries for the root itself are left out.
/// - Not `Sendable`: it owns a libarchive handle; keep it in one task.
public final class ArchiveEntryReader {
    /// The archive or folder, as messages name it.
    public let input: String
    private let archive: ArchiveReader
    private let limits: Limits
    private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
    /// The fingerprint of every file's path met so far: a few words an entry, not its path.
    private var seen = FingerprintTable()
    private var current: ArchiveEntryInfo?
    private var currentRead: Int64 = 0
    private var countedBytes: Int64 = 0
    private var entryCount = 0
    private var ended = false

    /// Whether a file at `path` was met so far.
    func hasMet(_ path: EntryPath) -> Bool { seen[TextFingerprint(path.description)] != nil }

    /// Opens the archive file at `file`.
    public convenience init(file: URL, limits: Limits) throws(AlbumKitError) {
        try self.init(ArchiveReader(file: file.path, unpackedLimit: limits.archiveBytes), limits: limits)
    }

    /// Walks the folder at `folder` and everything under it.
    public convenience init(folder: URL, limits: Limits) throws(AlbumKitError) {
        try self.init(ArchiveReader(folder: folder.path), limits: limits)
    }

    /// Reads an archive held in memory (a copy is kept); `name` names it in messages.
    public convenience init(bytes: some Collection<UInt8>, name: String, limits: Limits) throws(AlbumKitError) {
        try self.init(ArchiveReader(bytes: bytes, name: name, unpackedLimit: limits.archiveBytes), limits: limits)
    }

    /// Opens `url`: a folder is walked, anything else read as an archive file.
    public convenience init(contentsOf url: URL, limits: Limits) throws(AlbumKitError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
            throw AlbumKitError(.fileSystem, "\(url.path): no such file or folder")
        }
        if isFolder.boolValue {
            try self.init(folder: url, limits: limits)
        } else {
            try self.init(file: url, limits: limits)
        }
    }

    private init(_ archive: ArchiveReader, limits: Limits) {
        input = archive.path
        self.archive = archive
        self.limits = limits
    }

    deinit { buffer.deallocate() }

    /// The next file or folder, or nil once the archive has been read and checked to its end.
    public func next() throws(AlbumKitError) -> ArchiveEntryInfo? {
        current = nil
        guard !ended else { return nil }
        while let entry = try archive.nextEntry(number: entryCount + 1) {
            entryCount += 1
            let path = try EntryPath(entry, archive: input)
            let subject = "\(input) entry \(path)"
            let kind: ArchiveEntryInfo.Kind
            switch entry.kind {
            case .refused(let what):
                throw AlbumKitError(.unreadableInput, "\(subject): is \(what); an archive may hold only files and folders")
            case .directory:
                if path.isEmpty { continue }
                kind = .directory
            case .file:
                guard !path.isEmpty else {
                    throw AlbumKitError(.unreadableInput, "\(input) entry #\(entry.number): a file without a name")
                }
                guard seen.insert(TextFingerprint(path.description)) else {
                    throw AlbumKitError(.unreadableInput, "\(subject): the archive holds this entry twice")
                }
                kind = .file
            }
            let info = ArchiveEntryInfo(entryPath: path, kind: kind, declaredSize: entry.declaredSize, number: entry.number)
            if let declared = info.declaredSize, kind == .file { try count(declared, of: info) }
            current = info
            currentRead = 0
            return info
        }
        ended = true
        return nil
    }

    /// Reads the current entry's next bytes into `buffer`; 0 at its end (and for a folder entry).
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(AlbumKitError) -> Int {
        guard let current, current.kind == .file else { return 0 }
        let count = try archive.read(into: buffer, entry: current.path)
        // The declared size was counted with the header; count only bytes beyond it.
        let beyond = currentRead + Int64(count) - max(currentRead, current.declaredSize ?? 0)
        currentRead += Int64(count)
        if beyond > 0 { try self.count(beyond, of: current) }
        return count
    }

    /// The current entry's remaining bytes, whole; an entry of more than `limit` bytes is
    /// refused with a ``AlbumKitError/Kind/limitExceeded`` error that names it and
    /// `limitName` (the configuration key, "limits.coverBytes").
    public func readAll(limit: Int64, limitName: String) throws(AlbumKitError) -> Data {
        guard let current else { return Data() }
        if let declared = current.declaredSize, declared > limit { throw tooLarge(current, limit: limit, limitName: limitName) }
        var bytes = Data(capacity: Int(min(current.declaredSize ?? 0, limit)))
        while true {
            let count = try read(into: buffer)
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else { throw tooLarge(current, limit: limit, limitName: limitName) }
            bytes.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count]).assumingMemoryBound(to: UInt8.self))
        }
    }

    /// Skips the rest of the current entry.
    public func skip() throws(AlbumKitError) {
        guard let current, current.kind == .file else { return }
        try archive.skip(entry: current.path)
        self.current = nil
    }

    /// Stored bytes read so far (compressed, as in the file); 0 for a folder.
    public var storedBytesRead: Int64 { archive.storedBytesRead }

    /// The archive file's size as stored; nil for a folder.
    public var storedSize: Int64? { archive.storedSize }

    /// The entries' bytes so far: read, skipped, or declared by the entry being read.
    public var unpackedBytes: Int64 { countedBytes }

    /// Up to `count` entries from the start of `url` (a folder or an archive), for a source's
    /// cheap `match`: entry bytes are skipped, and the look stops early — without an error —
    /// at a damaged or hostile entry or once 32 MiB have been unpacked.
    public static func peek(_ url: URL, entries count: Int) -> [ArchiveEntryInfo] {
        guard let reader = try? ArchiveEntryReader(contentsOf: url, limits: Limits(archiveBytes: 32 << 20)) else { return [] }
        var entries: [ArchiveEntryInfo] = []
        while entries.count < count, let entry = try? reader.next() {
            entries.append(entry)
        }
        return entries
    }

    /// The error for an entry over the `limit` of the key `limitName`.
    func tooLarge(_ entry: ArchiveEntryInfo, limit: Int64, limitName: String) -> AlbumKitError {
        AlbumKitError(.limitExceeded, "\(input) entry \(entry.path): is more than \(limit) bytes, the limit (\(limitName)); nothing was written")
    }

    /// Where the current entry's bytes start in an uncompressed tar file; nil otherwise.
    var currentFileOffset: Int64? { archive.isUncompressedFile ? archive.dataOffset : nil }

    private func count(_ bytes: Int64, of entry: ArchiveEntryInfo) throws(AlbumKitError) {
        countedBytes += bytes
        guard countedBytes <= limits.archiveBytes else {
            throw AlbumKitError(.limitExceeded, "\(input) entry \(entry.path): the archive unpacks to more than \(limits.archiveBytes) bytes, the limit (limits.archiveBytes); nothing was written")
        }
    }
}
