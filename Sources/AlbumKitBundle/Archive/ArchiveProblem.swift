import AlbumKit

/// What went wrong under an archive's format (the stored bytes or their compression layer),
/// before the reader knows which entry it was reading: ``ArchiveReader`` turns it into an
/// ``AlbumKitError`` naming the archive and the entry.
struct ArchiveProblem: Error {
    let kind: AlbumKitError.Kind
    /// Half a sentence: what is wrong ("the gzip stream is truncated").
    let reason: String

    init(_ kind: AlbumKitError.Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }

    /// libarchive could not make a handle (`archive_read_new` and the like return nil only when
    /// they cannot allocate it).
    static let cannotStart = ArchiveProblem(.outOfMemory, "cannot start libarchive: out of memory")

    /// The error naming `subject` ("b.tgz entry covers/x.png").
    func error(_ subject: String) -> AlbumKitError { AlbumKitError(kind, "\(subject): \(reason)") }
}
