@testable import AlbumKit
import AlbumKitBundle
import AlbumKitTesting
import Foundation
import Testing

/// Bundles written by other tools import; bundles AlbumKit writes are ordinary tar files.
@Suite struct InteropTests {
    /// Imports `input` into a fresh library; checks every sample album and cover arrived.
    private func expectImports(_ bundle: SampleBundle = SampleBundle(), _ make: (URL, Workspace) throws -> URL) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let fixture = try await LibraryFixture.make(in: workspace)
        let input = try make(workspace.path("inputs"), workspace)
        let summary = try await fixture.importing([input])
        #expect(summary.added == bundle.albums.count, "\(input.lastPathComponent): \(summary)")
        #expect(summary.warnings.isEmpty, "\(summary.warnings)")
        let stored = Set(try await fixture.library.storage.covers.keys().map(\.bundlePath))
        let linked = Set(bundle.albums.compactMap { $0["coverUrl"] as? String })
        #expect(stored.isSuperset(of: linked), "\(input.lastPathComponent): covers missing")
        let unlinked = Set(bundle.covers.keys).subtracting(linked)
        #expect(stored.isDisjoint(with: unlinked), "\(input.lastPathComponent): a carried cover no album links was stored")
        let imported = try await fixture.library.albums().filter { $0.id.rawValue.hasPrefix("sample-") }
        #expect(imported.map(\.title) == bundle.albums.map { $0["title"] as! String })
    }

    private func sampleFolder(_ workspace: Workspace, named name: String = "mybundle") throws -> URL {
        let folder = workspace.path("made").appendingPathComponent(name)
        try SampleBundle().writeFolder(folder)
        return folder
    }

    @Test(arguments: [
        ["czf", "b.tar.gz", "mybundle"], ["cJf", "b.tar.xz", "mybundle"], ["--zstd", "-cf", "b.tar.zst", "mybundle"],
        ["cf", "b.tar", "-C", "mybundle", "."],
    ])
    func gnuTar(_ arguments: [String]) async throws {
        try await expectImports { inputs, workspace in
            let folder = try sampleFolder(workspace)
            try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
            try tool("/bin/tar", arguments.map { $0.hasPrefix("b.") ? inputs.appendingPathComponent($0).path : $0 }, in: folder.deletingLastPathComponent())
            return inputs.appendingPathComponent(arguments.first { $0.hasPrefix("b.") }!)
        }
    }

    @Test(arguments: [["-czf", "b.tgz"], ["-cJf", "b.tar.xz"], ["--zstd", "-cf", "b.tar.zst"], ["--format", "zip", "-cf", "b.zip"]])
    func bsdtar(_ arguments: [String]) async throws {
        try await expectImports { inputs, workspace in
            let folder = try sampleFolder(workspace)
            try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
            let output = inputs.appendingPathComponent(arguments.last!)
            try tool("/usr/bin/bsdtar", arguments.dropLast() + [output.path, "-C", folder.path, "."], in: workspace.url)
            return output
        }
    }

    @Test(arguments: ["tar", "tgz", "txz", "tbz2", "zip", "tzst"]) func python(_ kind: String) async throws {
        try await expectImports { inputs, _ in
            try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
            let output = inputs.appendingPathComponent("python.\(kind == "tzst" ? "tar" : kind)")
            try PythonArchive.write(try SampleBundle().entries(), kind: kind == "tzst" ? "tar" : kind, to: output)
            guard kind == "tzst" else { return output }
            try tool("/usr/bin/zstd", ["-q", "--rm", output.path, "-o", output.path + ".zst"], in: inputs)
            return URL(fileURLWithPath: output.path + ".zst")
        }
    }

    @Test func unpackedFolder() async throws {
        try await expectImports { _, workspace in try sampleFolder(workspace) }
    }

    @Test func withoutManifestWithPlistCoversFirst() async throws {
        try await expectImports { inputs, _ in
            try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
            let bundle = SampleBundle()
            let plist = try PropertyListSerialization.data(fromPropertyList: bundle.albums, format: .xml, options: 0)
            var entries = try bundle.entries(checksums: false, manifest: false).filter { $0.name != Array("albums.json".utf8) }
            entries.append(TestEntry("albums.plist", .file(plist)))
            let output = inputs.appendingPathComponent("plist.tgz")
            try PythonArchive.write(entries.map { TestEntry(rawName: Array("wrapped/".utf8) + $0.name, $0.kind) }, kind: "tgz", to: output)
            return output
        }
    }

    @Test func exportIsListedAndExtractedByTar() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let fixture = try await LibraryFixture.make(in: workspace)
        let bundle = workspace.path("backup.tar.gz")
        try await fixture.library.export(to: bundle)
        let listing = try runProgram("/bin/tar", ["-tzf", bundle.path])
        let cover = try await fixture.library.storage.covers.keys()[0]
        #expect(listing.status == 0)
        #expect(listing.output.split(separator: "\n") == ["manifest.json", "albums.json", "state.json", "\(cover.bundlePath)", "checksums.sha256"])
        let folder = workspace.path("extracted")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(try runProgram("/bin/tar", ["-xzf", bundle.path, "-C", folder.path]).status == 0)
        let check = try runProgram("/usr/bin/sha256sum", ["-c", "checksums.sha256"], in: folder)
        #expect(check.status == 0, "\(check.output)")
        #expect(try await BundleVerifier.problems(in: bundle, limits: Limits()).isEmpty)
    }
}
