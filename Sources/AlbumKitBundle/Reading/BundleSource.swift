import AlbumKit
import Foundation
import Synchronization

/// The `bundle` album source: reads a bundle (SPEC 3) — an archive of any format libarchive
/// reads (tar, zip, 7z, rar, cpio, ISO 9660, ar, cab, lha, xar, warc; not mtree) under at most
/// one compression layer, or a folder
/// laid out like an unpacked bundle — through ``ArchiveEntryReader``, entry by entry. The
/// stream is pulled: the archive advances only as the consumer asks, so at most one cover is
/// in memory. Its covers are checked against their names as they are read
/// (``CoverCheckingSource``).
public struct BundleSource: AlbumSource {
    /// The archive names this source claims by their ending.
    public static let endings = [
        ".tar", ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.zst", ".tzst", ".tar.bz2", ".tbz2", ".tbz", ".tar.lz4", ".tlz4",
        ".tar.z", ".taz", ".tar.lz", ".tar.lzma", ".tlz", ".tar.lzo", ".tar.lrz", ".tar.uu",
        ".zip", ".7z", ".rar", ".cpio", ".iso", ".ar", ".cab", ".lha", ".lzh", ".xar", ".warc",
    ]

    public init() {}

    public var name: String { "bundle" }
    public var summary: String { "albumkit bundles: archives (tar, zip, …) and unpacked bundle folders" }

    /// The bundle reader hashes every entry for its checksum list and yields no cover whose
    /// bytes hash to another name.
    public var checksCoverNames: Bool { true }

    /// A folder, a name with an archive ending, a file that starts like a compression layer,
    /// or one whose content the archive reader reads whatever its name (SPEC 2: chosen by
    /// content): generic, since other sources read archives and folders too. A compressed file
    /// is claimed before it is read, so that what is wrong inside it is said in its own words.
    public func match(_ input: SourceInput) -> SourceMatch {
        let lower = input.name.lowercased()
        if input.isFolder || Self.endings.contains(where: lower.hasSuffix) { return .generic }
        if CompressionLayer(prefix: input.prefix) != .none { return .generic }
        return !input.prefix.isEmpty && ArchiveReader.reads(file: input.path) ? .generic : .none
    }

    /// Every problem `verify` finds: checksums, cover hashes, the manifest, each album's
    /// fields, ids, cover references and the current album (see ``BundleVerifier``).
    public func problems(in input: SourceInput, context: SourceContext) async throws -> [String] {
        try await BundleVerifier.problems(in: input.url, limits: context.limits)
    }

    public func items(from input: SourceInput, context: SourceContext) -> AsyncThrowingStream<SourceItem, any Error> {
        let reader = Mutex(PulledReader(input: input.url, options: .init(limits: context.limits)))
        return AsyncThrowingStream { try reader.withLock { try $0.next() } }
    }
}

/// A ``BundleReader`` opened on the first pull, so that opening errors arrive through the stream.
private struct PulledReader: ~Copyable {
    let input: URL
    let options: BundleReader.Options
    var reader: BundleReader?

    init(input: URL, options: BundleReader.Options) {
        self.input = input
        self.options = options
    }

    mutating func next() throws(AlbumKitError) -> SourceItem? {
        if reader == nil { reader = try BundleReader(input, options: options) }
        while let item = try reader?.next() {
            if case .source(let item) = item { return item }
        }
        return nil
    }
}
