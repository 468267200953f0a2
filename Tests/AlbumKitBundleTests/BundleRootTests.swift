import AlbumKit
import AlbumKitBundle
import AlbumKitTesting
import Foundation
import Testing

/// Where the bundle sits in an archive or folder (SPEC 3: extra files and folders are
/// ignored; the whole bundle may sit under one top-level folder). Whatever entry comes first
/// — an extra folder, an empty one, a file of its own — the bundle is found (issue 16).
@Suite struct BundleRootTests {
    /// How the sample bundle is laid out and packed.
    enum Layout: String, CaseIterable, Sendable {
        /// `tar -czf ../b.tgz *` in a bundle folder with an extra `Scans/` folder (sorts first).
        case tarOfEverythingWithScans
        /// Python's zipfile with an empty folder listed first.
        case zipWithAnEmptyFolderFirst
        /// `zip -r` of a folder whose extra folders hold files named like bundle files.
        case infoZipWithExtraFolders
        /// The bundle under one folder, its own extra folder first inside it.
        case wrappedWithScansFirst
        /// An unpacked folder with extra folders, walked in directory order.
        case folderWithExtraFolders
    }

    /// The sample bundle's files plus extras under `Scans/`, `Booklet/` and an empty `Artwork/`.
    private func writeWithExtras(_ folder: URL) throws {
        try SampleBundle().writeFolder(folder)
        for (name, text) in [("Scans/front.txt", "scan"), ("Booklet/page1.txt", "page"), ("Booklet/notes/albums.txt", "not a list")] {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("Artwork"), withIntermediateDirectories: true)
    }

    private func make(_ layout: Layout, in workspace: Workspace) throws -> URL {
        let folder = workspace.path("made/mybundle")
        switch layout {
        case .tarOfEverythingWithScans:
            try writeWithExtras(folder)
            let output = workspace.path("everything.tgz")
            try tool("/bin/sh", ["-c", "LC_ALL=C tar -czf '\(output.path)' *"], in: folder)
            let listing = try runProgram("/bin/tar", ["-tzf", output.path]).output
            #expect(listing.hasPrefix("Artwork/"), "an extra folder comes first: \(listing)")
            return output
        case .zipWithAnEmptyFolderFirst:
            let output = workspace.path("empty-first.zip")
            try PythonArchive.write([TestEntry("Empty/", .directory)] + SampleBundle().entries(), kind: "zip", to: output)
            return output
        case .infoZipWithExtraFolders:
            try writeWithExtras(folder)
            let output = workspace.path("info.zip")
            try tool("/bin/sh", ["-c", "LC_ALL=C zip -q -r '\(output.path)' Scans Booklet Artwork *.json covers checksums.sha256"], in: folder)
            return output
        case .wrappedWithScansFirst:
            try writeWithExtras(folder)
            let output = workspace.path("wrapped.tar.xz")
            let order = ["Scans", "Artwork", "Booklet", "manifest.json", "albums.json", "covers", "checksums.sha256"].map { "mybundle/\($0)" }
            try tool("/bin/tar", ["-cJf", output.path] + order, in: folder.deletingLastPathComponent())
            return output
        case .folderWithExtraFolders:
            try writeWithExtras(folder)
            return folder
        }
    }

    @Test(arguments: Layout.allCases, BundleWorkflow.allCases)
    func theBundleIsFoundWhateverComesFirst(_ layout: Layout, _ workflow: BundleWorkflow) async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try await workflow.expectAccepted(try make(layout, in: workspace))
    }

    /// A folder holding no bundle still says where it looked.
    @Test func anArchiveWithoutAListNamesTheFolderItLookedIn() async throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let output = workspace.path("nolist.tgz")
        try PythonArchive.write([TestEntry("mybundle/", .directory), .file("mybundle/notes.txt", "x")], kind: "tgz", to: output)
        try await BundleWorkflow.importing.expectRefused(output, saying: "the bundle holds no albums.json or albums.plist (looked inside mybundle/)")
    }
}
