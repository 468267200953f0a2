import AlbumKit

/// What a walker found next in the input.
enum WalkedEntry: Equatable {
    /// A regular file at this path (relative to the input, `/`-separated); the walker reads
    /// its bytes until it moves on.
    case file(String)
    /// Something that is not a regular file (a link, a device): never read, only counted.
    case skipped(String, reason: String)
}

/// Goes through the files of an input — a folder or an archive — in order, one at a time,
/// and reads the current one's bytes (as ``AudioEntryBytes``). Not `Sendable`: it stays in
/// one owner.
protocol InputWalker: AudioEntryBytes {
    /// Whether every folder's files and subfolders come as one run, so a folder the walk
    /// has left never comes back (true for the folder walk; an archive promises nothing).
    var keepsFoldersTogether: Bool { get }
    /// Bytes read so far and, when known, in all (for progress).
    var progress: (bytesRead: Int64, totalBytes: Int64?) { get }
    /// The next entry, or nil at the end.
    func next() throws(AlbumKitError) -> WalkedEntry?
    /// How messages name the entry at `path` ("in.tar entry A/01.mp3").
    func subject(_ path: String) -> String
}
