import AlbumKit
import AlbumKitBundle
import AlbumKitTesting
import Foundation
import Testing

/// One compression layer over the archive, read and checked to its very end (SPEC 2 and 3,
/// issue 16): every layer made by its own tool is read by import, restore and verify; a
/// damaged trailer, a failed check, data after the end or a second layer is refused by all
/// three, even though every entry before it decodes.
@Suite struct CompressionLayerTests {
    /// A compression tool and the file ending it writes.
    enum Layer: String, CaseIterable, Sendable {
        case gzip, bzip2, xz, zstd, lz4

        /// Compresses `tar` with the tool itself into a new file; returns its URL.
        func compress(_ tar: URL) throws -> URL {
            let folder = tar.deletingLastPathComponent()
            let (output, command): (String, [String]) =
                switch self {
                case .gzip: (tar.path + ".gz", ["/usr/bin/gzip", "-k", "-n", tar.path])
                case .bzip2: (tar.path + ".bz2", ["/usr/bin/bzip2", "-k", tar.path])
                case .xz: (tar.path + ".xz", ["/usr/bin/xz", "-k", tar.path])
                case .zstd: (tar.path + ".zst", ["/usr/bin/zstd", "-q", tar.path, "-o", tar.path + ".zst"])
                case .lz4: (tar.path + ".lz4", ["/usr/bin/lz4", "-q", tar.path, tar.path + ".lz4"])
                }
            try tool(command[0], Array(command.dropFirst()), in: folder)
            return URL(fileURLWithPath: output)
        }
    }

    /// What is wrong with a compressed sample, and what the refusal says.
    enum Damage: String, CaseIterable, Sendable {
        case gzipCRC, gzipLength, gzipTrailingGarbage, gzipTrailingZeros, xzCheck, zstdChecksum, lz4Checksum
        case bzip2TrailingGarbage, xzTrailingGarbage, zstdTrailingGarbage, lz4TrailingGarbage

        var layer: Layer { Layer.allCases.first { rawValue.hasPrefix($0.rawValue) }! }

        var phrase: String {
            switch self {
            case .gzipCRC: "the gzip stream is corrupt (incorrect data check)"
            case .gzipLength: "the gzip stream is corrupt (incorrect length check)"
            case .gzipTrailingGarbage, .gzipTrailingZeros: "data follows the end of the gzip stream"
            case .bzip2TrailingGarbage, .lz4TrailingGarbage: "data follows the end of the \(layer) stream"
            case .xzCheck, .zstdChecksum, .lz4Checksum, .xzTrailingGarbage, .zstdTrailingGarbage: "the \(layer) stream is corrupt"
            }
        }

        /// `data` (a compressed tar) damaged only after its last archive byte.
        func apply(to data: Data) -> Data {
            var data = data
            let count = data.count
            switch self {
            case .gzipCRC: data[count - 8] ^= 0x01
            case .gzipLength: data[count - 4] ^= 0x01
            case .gzipTrailingZeros: data += Data(count: 512)
            case .zstdChecksum, .lz4Checksum: data[count - 1] ^= 0x01
            case .xzCheck:
                // The block's check (CRC64) lies just before the index, whose size the footer gives.
                let backward = data[(count - 8)..<(count - 4)].reversed().reduce(0) { $0 << 8 | Int($1) }
                data[count - 12 - (backward + 1) * 4 - 1] ^= 0x01
            case .gzipTrailingGarbage, .bzip2TrailingGarbage, .xzTrailingGarbage, .zstdTrailingGarbage, .lz4TrailingGarbage:
                data += Data("trailing garbage".utf8)
            }
            return data
        }
    }

    /// The sample bundle, with a large incompressible cover so that every stream spans many
    /// blocks, as an uncompressed tar made by GNU tar.
    static func sample(in workspace: Workspace) throws -> (tar: URL, bundle: SampleBundle) {
        var bundle = SampleBundle()
        let noise = Data((0..<300_000).map { _ in UInt8.random(in: 0...255) })
        bundle.covers["covers/\(SHA256Digest.hex(of: noise)).jpg"] = noise
        let folder = workspace.path("made")
        try bundle.writeFolder(folder)
        let tar = workspace.path("sample.tar")
        try tool("/bin/tar", ["cf", tar.path, "-C", folder.path, "."], in: workspace.url)
        return (tar, bundle)
    }

    @Test(arguments: Layer.allCases, BundleWorkflow.allCases)
    func everyLayerMadeByItsToolIsRead(_ layer: Layer, _ workflow: BundleWorkflow) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let (tar, bundle) = try Self.sample(in: workspace)
        try await workflow.expectAccepted(try layer.compress(tar), bundle: bundle)
    }

    /// `gzip` files may hold several members one after the other (`cat a.gz b.gz`, pigz).
    @Test(arguments: BundleWorkflow.allCases) func gzipMembersOneAfterAnother(_ workflow: BundleWorkflow) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let (tar, bundle) = try Self.sample(in: workspace)
        let data = try Data(contentsOf: tar)
        let halves = [data.prefix(data.count / 3), data.dropFirst(data.count / 3)]
        var joined = Data()
        for (index, half) in halves.enumerated() {
            let part = workspace.path("part\(index)")
            try half.write(to: part)
            joined += try Data(contentsOf: try Layer.gzip.compress(part))
        }
        let output = workspace.path("members.tar.gz")
        try joined.write(to: output)
        try await workflow.expectAccepted(output, bundle: bundle)
    }

    @Test(arguments: Damage.allCases, BundleWorkflow.allCases)
    func damageAfterTheLastEntryIsRefused(_ damage: Damage, _ workflow: BundleWorkflow) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let (tar, _) = try Self.sample(in: workspace)
        let compressed = try damage.layer.compress(tar)
        let output = workspace.path("damaged-\(damage).tar.\(compressed.pathExtension)")
        try damage.apply(to: try Data(contentsOf: compressed)).write(to: output)
        try await workflow.expectRefused(output, saying: damage.phrase)
    }

    /// A few hundred bytes of gzip that unpack to gzip, again and again: refused at the
    /// second layer, never unpacked further (libarchive's filter bidding would stack a
    /// decompressor per layer).
    @Test(arguments: BundleWorkflow.allCases) func aSecondLayerIsRefused(_ workflow: BundleWorkflow) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let output = workspace.path("nested.tar.gz")
        let script = """
            import gzip, io, sys, tarfile
            buffer = io.BytesIO()
            with tarfile.open(fileobj=buffer, mode="w") as t:
                data = b'[{"title": "Deep", "artist": "Down"}]'
                info = tarfile.TarInfo("albums.json"); info.size = len(data); t.addfile(info, io.BytesIO(data))
            data = buffer.getvalue()
            for _ in range(12): data = gzip.compress(data, mtime=0)
            open(sys.argv[1], "wb").write(data)
            """
        try tool("/usr/bin/env", ["python3", "-c", script, output.path], in: workspace.url)
        let size = try FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int ?? 0
        #expect(size < 1000, "a few hundred bytes, not \(size)")
        try await workflow.expectRefused(output, saying: "the gzip stream holds another compressed stream (gzip); an archive may have one compression layer at most")
    }

    /// An xz stream inside a zstd one, made by the tools themselves.
    @Test func aSecondLayerOfAnotherKindIsRefused() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let (tar, _) = try Self.sample(in: workspace)
        let output = try Layer.zstd.compress(try Layer.xz.compress(tar))
        try await BundleWorkflow.importing.expectRefused(output, saying: "the zstd stream holds another compressed stream (xz)")
    }
}
