import AlbumKit
import AlbumKitBundle
import AlbumKitTesting
import Foundation
import Testing

/// Every archive format libarchive reads (SPEC 2, issue 13): a bundle made by each format's
/// own tool is read whole by import, restore and verify.
@Suite struct ArchiveFormatTests {
    /// An archive format and the tool that writes it.
    enum Maker: String, CaseIterable, Sendable {
        case ustar, pax, gnutar, cpioOdc, cpioNewc, gnuCpio, infoZip, sevenZip, iso9660, tarBzip2, tarLz4, rar4, rar5
        // Not xar and warc: libarchive 3.6.2 reads what bsdtar 3.6.2 writes in them with other
        // bytes (NULs in the data), which the checksums then refuse.
        case v7tar, tarCompress, tarLzip, tarLzma, tarUuencode

        /// The file ending the archive gets.
        var ending: String {
            switch self {
            case .ustar, .pax, .gnutar, .v7tar: "tar"
            case .tarCompress: "tar.Z"
            case .tarLzip: "tar.lz"
            case .tarLzma: "tar.lzma"
            case .tarUuencode: "tar.uu"
            case .cpioOdc, .cpioNewc, .gnuCpio: "cpio"
            case .infoZip: "zip"
            case .sevenZip: "7z"
            case .iso9660: "iso"
            case .tarBzip2: "tar.bz2"
            case .tarLz4: "tar.lz4"
            case .rar4, .rar5: "rar"
            }
        }

        /// Writes the files of `folder` (the sample bundle) into `output` with the tool; links
        /// are stored as links.
        func make(_ output: URL, from folder: URL, bundle: SampleBundle) throws {
            switch self {
            case .ustar, .pax, .gnutar, .cpioOdc, .cpioNewc, .v7tar:
                let format = ["cpioOdc": "odc", "cpioNewc": "newc"][rawValue] ?? rawValue
                try tool("/usr/bin/bsdtar", ["--format", format, "-cf", output.path, "."], in: folder)
            case .tarCompress, .tarLzip, .tarLzma, .tarUuencode:
                let filter = ["tarCompress": "-Z", "tarLzip": "--lzip", "tarLzma": "--lzma", "tarUuencode": "--uuencode"][rawValue]!
                try tool("/usr/bin/bsdtar", [filter, "-cf", output.path, "."], in: folder)
            case .gnuCpio:
                try tool("/bin/sh", ["-c", "find . -print | /usr/bin/cpio --quiet -o -H newc > '\(output.path)'"], in: folder)
            case .infoZip:
                try tool("/usr/bin/zip", ["-q", "-r", "-y", output.path, "."], in: folder)
            case .sevenZip:
                try tool("/usr/bin/7z", ["a", "-bd", "-bso0", "-snl", output.path, "."], in: folder)
            case .iso9660:
                // Rock Ridge keeps the long cover names (plain ISO 9660 names are 8.3).
                try tool("/usr/bin/genisoimage", ["-quiet", "-R", "-o", output.path, folder.path], in: folder)
            case .tarBzip2:
                try tool("/bin/tar", ["cjf", output.path, "."], in: folder)
            case .tarLz4:
                try tool("/usr/bin/bsdtar", ["--lz4", "-cf", output.path, "."], in: folder)
            case .rar4, .rar5:
                let files = try bundle.entries().map { entry -> (String, Data?) in
                    guard case .file(let data) = entry.kind else { return (String(decoding: entry.name, as: UTF8.self), nil) }
                    return (String(decoding: entry.name, as: UTF8.self), data)
                }
                try RarWriter.write([("covers", nil)] + files, version: self == .rar4 ? 4 : 5, to: output)
                try tool("/usr/bin/7z", ["t", "-bd", "-bso0", output.path], in: folder)
            }
        }
    }

    @Test(arguments: Maker.allCases, BundleWorkflow.allCases)
    func aBundleMadeByTheFormatsOwnToolIsRead(_ maker: Maker, _ workflow: BundleWorkflow) async throws {
        try await expectRead(maker, workflow, named: "bundle-\(maker).\(maker.ending)")
    }

    /// A source is chosen by content (SPEC 2): the same bytes with no name ending import too.
    @Test(arguments: Maker.allCases)
    func aBundleWithoutAnEndingIsReadByItsContent(_ maker: Maker) async throws {
        try await expectRead(maker, .importing, named: "bundle-\(maker)")
    }

    /// The sample bundle, made by `maker` into a file called `name`, is read whole by `workflow`.
    private func expectRead(_ maker: Maker, _ workflow: BundleWorkflow, named name: String) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let bundle = SampleBundle()
        let folder = workspace.path("made")
        try bundle.writeFolder(folder)
        // Made under the format's ending (the tools choose by it), then named `name`.
        let made = workspace.path("made.\(maker.ending)")
        try maker.make(made, from: folder, bundle: bundle)
        let output = workspace.path(name)
        try FileManager.default.moveItem(at: made, to: output)
        try await workflow.expectAccepted(output, bundle: bundle)
    }

    /// A symbolic link is refused in every format that can hold one (7z with `-snl`, Info-ZIP
    /// with `-y`), not only in tar.
    @Test(arguments: [Maker.pax, .gnuCpio, .infoZip, .sevenZip, .iso9660])
    func aSymbolicLinkIsRefusedInEveryFormat(_ maker: Maker) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let bundle = SampleBundle()
        let folder = workspace.path("made")
        try bundle.writeFolder(folder)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("covers/link.png").path, withDestinationPath: "/etc/passwd")
        let output = workspace.path("linked.\(maker.ending)")
        try maker.make(output, from: folder, bundle: bundle)
        try await BundleWorkflow.importing.expectRefused(output, saying: "covers/link.png: is a symbolic link")
    }
}
