import AlbumKit
import Foundation

/// Reads one input of audio files into source items, pulled one at a time: it walks only
/// as far as the consumer asks, so memory holds one track's tag bytes, the open folders'
/// images and the album summaries (see ``AlbumGrouper``), never a whole file or archive.
struct AudioFilesReader: ~Copyable {
    private let input: SourceInput
    private let limits: Limits
    private let openWalker: () throws(AlbumKitError) -> any InputWalker
    private var walker: (any InputWalker)?
    /// Replaced when the walker opens, which says how it orders folders. Mutated in place
    /// only: a copy would make every track copy the album table.
    private var grouper = AlbumGrouper(emitsOnLeaving: false)
    private var pending: [SourceItem] = []
    private var pendingIndex = 0
    private var finished = false
    private var reportedBytes: Int64 = 0

    /// A reader of `input` through the walker `openWalker` makes on the first pull (so that
    /// opening errors arrive through the stream).
    init(input: SourceInput, limits: Limits, openWalker: @escaping () throws(AlbumKitError) -> any InputWalker) {
        self.input = input
        self.limits = limits
        self.openWalker = openWalker
    }

    /// The next item, or nil at the end.
    mutating func next() throws(AlbumKitError) -> SourceItem? {
        while pendingIndex == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingIndex = 0
            if finished { return nil }
            try advance()
        }
        defer { pendingIndex += 1 }
        return pending[pendingIndex]
    }

    /// Reads the next entry, or finishes, adding what it gave to `pending`.
    private mutating func advance() throws(AlbumKitError) {
        if walker == nil {
            let opened = try openWalker()
            walker = opened
            grouper = AlbumGrouper(emitsOnLeaving: opened.keepsFoldersTogether)
        }
        guard let walker else { return }
        guard let entry = try walker.next() else {
            pending += grouper.finish(input: input.path)
            if let progress = progressItem(walker, force: true) { pending.append(progress) }
            finished = true
            return
        }
        switch entry {
        case .skipped(let path, let reason):
            grouper.noteSkipped(walker.subject(path), reason: reason)
        case .file(let path):
            let name = path.split(separator: "/").last ?? ""
            let folder = AlbumGrouper.folder(of: path)
            if AudioFormat.isAudioPath(path) {
                pending += grouper.enter(folder)
                let subject = walker.subject(path)
                let collector = TagBytesCollector(limit: TagBytesCollector.limit(for: limits), subject: subject)
                let tags = try TrackTags(reading: try collector.collect(from: walker), coverLimit: limits.coverBytes, subject: subject)
                pending += grouper.add(tags, folder: folder, label: subject)
            } else if let rank = AlbumGrouper.folderImageRank(name) {
                pending += grouper.enter(folder)
                grouper.addFolderImage(try folderImage(walker, path: path), rank: rank, folder: folder, label: walker.subject(path))
            }
        }
        if let progress = progressItem(walker, force: false) { pending.append(progress) }
    }

    /// The bytes of a folder image, refused past `limits.coverBytes`.
    private func folderImage(_ walker: any InputWalker, path: String) throws(AlbumKitError) -> Data {
        var bytes = Data()
        try walker.append(upTo: Int(clamping: limits.coverBytes) + 1, to: &bytes)
        guard bytes.count <= limits.coverBytes else {
            throw AlbumKitError(.limitExceeded, "\(walker.subject(path)): larger than limits.coverBytes (\(limits.coverBytes) bytes)")
        }
        return bytes
    }

    /// A progress item every MiB read, and at the end.
    private mutating func progressItem(_ walker: any InputWalker, force: Bool) -> SourceItem? {
        let (read, total) = walker.progress
        guard force || read - reportedBytes >= 1 << 20 else { return nil }
        reportedBytes = read
        return .progress(bytesRead: read, totalBytes: total)
    }
}
