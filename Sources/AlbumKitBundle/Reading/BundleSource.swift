import AlbumKit
import Foundation
import Synchronization

/// The `bundle` album source: reads a bundle (SPEC 3) — an archive of any format libarchive
/// reads (tar, zip, 7z, rar, cpio, ISO 9660) under at most one compression layer, or a folder
/// laid out like an unpacked bundle — through ``ArchiveEntryReader``, entry by entry. The
/// stream is pulled: the archive advances only as the consumer asks, so at most one cover is
/// in memory. Its covers are checked against their names as they are read
/// (``CoverCheckingSource``).
public struct BundleSource: AlbumSource, CoverCheckingSource {
    /// The archive names this source claims by their ending.
    public static let endings = [
        ".tar", ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.zst", ".tzst", ".tar.bz2", ".tbz2", ".tbz", ".tar.lz4", ".tlz4",
        ".zip", ".7z", ".rar", ".cpio", ".iso",
    ]

    /// First bytes of the compression layers and archive formats read (tar's is at offset 257).
    private static let signatures: [[UInt8]] = [
        [0x1F, 0x8B], [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], [0x28, 0xB5, 0x2F, 0xFD], Array("BZh".utf8),
        [0x04, 0x22, 0x4D, 0x18], Array("PK\u{3}\u{4}".utf8), [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C], Array("Rar!\u{1A}\u{7}".utf8),
        Array("070707".utf8), Array("070701".utf8), Array("070702".utf8), [0xC7, 0x71], [0x71, 0xC7],
    ]

    public init() {}

    public var name: String { "bundle" }
    public var summary: String { "albumkit bundles: archives (tar, zip, …) and unpacked bundle folders" }

    /// A folder, a name with an archive ending, or bytes that start like a compression layer
    /// or an archive format: generic, since other sources read archives and folders too.
    public func match(_ input: SourceInput) -> SourceMatch {
        let lower = input.name.lowercased()
        if input.isFolder || Self.endings.contains(where: lower.hasSuffix) { return .generic }
        let prefix = input.prefix
        if Self.signatures.contains(where: prefix.starts(with:)) { return .generic }
        let isTar = prefix.count >= 262 && prefix[prefix.startIndex + 257..<prefix.startIndex + 262].elementsEqual("ustar".utf8)
        return isTar ? .generic : .none
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
