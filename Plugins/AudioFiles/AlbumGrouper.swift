import AlbumKit
import Foundation
import SourceSupport

/// Groups tracks into albums as an input's files go by, and says what to yield when.
///
/// Tracks become albums by (album artist, album) within one folder (SPEC 9). State is kept
/// per album (an ``AlbumSummary``: a few tallies and its tracks' titles, numbers and lengths) and per open folder (its
/// `cover.jpg`/`folder.jpg` bytes, until the walk leaves the folder).
///
/// When albums go out:
/// - A walk that keeps folders together (a folder input) emits a folder's albums when it
///   leaves the folder and its subfolders: they are complete, since it never comes back.
/// - An archive promises no order. Archivers (tar, zip, 7z) usually write a folder's files
///   together, but one may put a folder's tracks apart (all images first, files sorted by
///   type, an archive appended to). So albums of an archive go out at its end, which makes
///   scattered tracks still count in their album; what waits is only the summaries, never
///   track bytes. A folder image is decided on when the stream leaves the folder: yielded
///   then if an album there lacks an embedded picture, or if no track came yet (it may come
///   later), else counted as not used.
struct AlbumGrouper {
    /// Names a folder image may have, the preferred first (matched case-insensitively).
    static let folderImageNames = ["cover.jpg", "cover.jpeg", "cover.png", "folder.jpg", "folder.jpeg", "folder.png"]

    /// The rank of a folder image called `name` (lower is preferred), or nil for other names.
    static func folderImageRank(_ name: some StringProtocol) -> Int? {
        folderImageNames.firstIndex(of: name.lowercased())
    }

    private struct OpenFolder {
        /// The preferred image so far, and how messages name it.
        var image: (rank: Int, bytes: Data, label: String)?
        var albums: [AlbumSummary.Key] = []
    }

    private let emitsOnLeaving: Bool
    private var openFolders: [String: OpenFolder] = [:]
    /// The folder images already yielded, by folder (read when an album needs one).
    private var folderCovers: [String: String] = [:]
    private var albums: [AlbumSummary.Key: AlbumSummary] = [:]
    /// Albums waiting for the end of an archive, in the order their first track came.
    private var albumOrder: [AlbumSummary.Key] = []
    private var yieldedCovers = Set<String>()
    private var skipped = SkipCount()
    /// The tags no track kept, by name, over the whole input.
    private var droppedTags = Tally()

    /// A grouper for a walk that keeps folders together (`emitsOnLeaving`) or not.
    init(emitsOnLeaving: Bool) {
        self.emitsOnLeaving = emitsOnLeaving
    }

    /// The folder part of `path` ("" for a file at the top).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// Notes that the walk is at a file in `folder`: every folder it has left is closed.
    mutating func enter(_ folder: String) -> [SourceItem] {
        var items: [SourceItem] = []
        let left = openFolders.keys.filter { !(folder == $0 || $0.isEmpty || folder.hasPrefix($0 + "/")) }
        for closed in left.sorted(by: >) { items += close(closed) }
        if openFolders[folder] == nil { openFolders[folder] = OpenFolder() }
        return items
    }

    /// Keeps a folder image (`cover.jpg`, …) of the current folder, the preferred name's;
    /// `label` names it in messages.
    mutating func addFolderImage(_ bytes: Data, rank: Int, folder: String, label: String) {
        if let held = openFolders[folder]?.image, held.rank <= rank { return }
        openFolders[folder, default: OpenFolder()].image = (rank, bytes, label)
    }

    /// Counts a track in; yields its embedded picture when it is the first of its album.
    /// `label` names the track in messages.
    mutating func add(_ tags: TrackTags, folder: String, label: String) -> [SourceItem] {
        // A track that cannot be part of an album is a record of the input that is not an
        // album: named, skipped and counted by the import (or refused with --strict).
        guard let album = tags.album?.trimmedTag else {
            return [.invalid(AlbumRecord(title: "", artist: tags.albumArtist ?? tags.artist ?? ""), label: AlbumLabel(label), reason: "the track has no album tag")]
        }
        let albumArtist = tags.albumArtist?.trimmedTag ?? ""
        guard !albumArtist.isEmpty || tags.artist?.trimmedTag != nil else {
            return [.invalid(AlbumRecord(title: album, artist: ""), label: AlbumLabel(label), reason: "the track has neither an artist nor an album-artist tag")]
        }
        let key = AlbumSummary.Key(folder: folder, albumArtist: albumArtist, album: album)
        if albums[key] == nil {
            albums[key] = AlbumSummary(key: key, label: label)
            if !emitsOnLeaving { albumOrder.append(key) }
            openFolders[folder, default: OpenFolder()].albums.append(key)
        }
        albums[key]?.add(tags, file: String(label.split(separator: "/").last ?? Substring(label)))
        skipped.note(.otherPicture, label, count: tags.pictures - (tags.cover == nil ? 0 : 1))
        guard let bytes = tags.cover else { return [] }
        if let taken = albums[key]?.embeddedCoverIdentity {
            if CoverIdentity(bytes) != taken { skipped.note(.unlikeCover, label) }
            return []
        }
        guard let kind = ImageKind(sniffing: bytes) else {
            return [.warning("\(label): its embedded front picture is not a JPEG, PNG, GIF or WebP image; it is not used")]
        }
        let (path, items) = coverItems(bytes, kind: kind)
        albums[key]?.embeddedCover = path
        albums[key]?.embeddedCoverIdentity = CoverIdentity(bytes)
        return items
    }

    /// Notes an entry that is not a regular file.
    mutating func noteSkipped(_ label: String, reason: String) {
        skipped.note(.notAFile, "\(label), \(reason)")
    }

    /// Closes every folder and emits every album not yet emitted, then the warnings.
    mutating func finish(input: String) -> [SourceItem] {
        var items: [SourceItem] = []
        for folder in openFolders.keys.sorted(by: >) { items += close(folder) }
        for key in albumOrder { items += emit(key) }
        albumOrder = []
        if droppedTags.total > 0 {
            let names = droppedTags.seen.map { "'\($0.value)' (\($0.count))" }.joined(separator: ", ")
            items.append(.warning("\(input): tags not kept (not text, longer than \(AlbumLimits.textBytes) bytes, or past \(AlbumLimits.fields) fields a track): \(names)"))
        }
        return items + skipped.warnings(input: input).map(SourceItem.warning)
    }

    /// Closes `folder`: decides on its image, and emits its albums when the walk never
    /// comes back.
    private mutating func close(_ folder: String) -> [SourceItem] {
        guard let state = openFolders.removeValue(forKey: folder) else { return [] }
        var items: [SourceItem] = []
        if let image = state.image, folderCovers[folder] == nil {
            let needed = state.albums.contains { albums[$0]?.embeddedCover == nil } || (state.albums.isEmpty && !emitsOnLeaving)
            if needed, let kind = ImageKind(sniffing: image.bytes) {
                let (path, yielded) = coverItems(image.bytes, kind: kind)
                folderCovers[folder] = path
                items += yielded
            } else if needed {
                items.append(.warning("\(folder.isEmpty ? "the top folder" : folder): its \(Self.folderImageNames[image.rank]) is not a JPEG, PNG, GIF or WebP image; it is not used"))
            } else if !state.albums.isEmpty {
                skipped.note(.unusedFolderImage, image.label)
            }
        }
        guard emitsOnLeaving else { return items }
        for key in state.albums { items += emit(key) }
        folderCovers[folder] = nil
        return items
    }

    /// The album `key` names, and forgets its summary.
    private mutating func emit(_ key: AlbumSummary.Key) -> [SourceItem] {
        guard let summary = albums.removeValue(forKey: key) else { return [] }
        for (name, count) in summary.droppedTags.seen { droppedTags.add(name, count: count) }
        let album = SourceItem.album(summary.record(folderCover: folderCovers[key.folder]), label: AlbumLabel(summary.label))
        guard summary.tracksPastLimit > 0 else { return [album] }
        let count = summary.tracksPastLimit
        return [.warning("\(summary.label): album '\(key.album)' has \(AlbumLimits.tracks + count) tracks; the \(count) past the \(AlbumLimits.tracks) an album may have are not kept as tracks"), album]
    }

    /// The `covers/<sha256>.<ext>` path of `bytes`, and the item that yields them unless an
    /// earlier album's cover had the same bytes.
    private mutating func coverItems(_ bytes: Data, kind: ImageKind) -> (String, [SourceItem]) {
        let path = CoverKey(bytes: bytes, fileExtension: kind.fileExtension).bundlePath
        guard yieldedCovers.insert(path).inserted else { return (path, []) }
        return (path, [.cover(path: path, bytes: bytes)])
    }
}
