import AlbumKit
import AlbumKitBundle
import ArgumentParser
import Foundation

/// `albumkit restore BUNDLE [--force]`: replace the library's albums, state and covers with a
/// bundle's. A library that is not empty needs `--force`, and is first saved as a bundle in
/// `backups/` inside the library folder. Not a step of history.
struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Replace the library with a bundle's albums, state and covers.",
        discussion: """
            The bundle is read and checked whole before anything is written. A library that is not \
            empty is replaced only with --force, and is first saved to backups/ in the library folder. \
            A restore cannot be undone with 'undo'.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The bundle (or unpacked bundle folder) to restore.") var path: String
    @Flag(help: "Replace a library that is not empty (it is saved to backups/ first).") var force = false

    func run() async throws {
        let input = URL(fileURLWithPath: path)
        let summary = try await global.withLibrary(progress: true) { library, context in
            let current = await library.snapshot
            if !current.albums.isEmpty && !force {
                throw AlbumKitError(.libraryState, "the library at \(library.storage.location) holds \(current.albums.count) albums; restoring \(path) would replace them: add --force (the library is saved to backups/ first)")
            }
            let pipeline = RestorePipeline(
                registry: context.registry, limits: context.configuration.limits,
                stagingParent: context.configuration.libraryDirectory)
            return try await pipeline.run(input, into: library) {
                guard !current.albums.isEmpty else { return }
                let backup = try Self.backupFile(in: context.configuration.libraryDirectory)
                try await BundleWriter(compression: .gzip, generator: "albumkit \(AlbumKitVersion.current)")
                    .write(current, covers: library.storage.covers, to: backup)
                print("Saved the library it replaces to \(backup.path).")
            }
        }
        for warning in summary.warnings { Console.warning(warning) }
        print("Restored \(summary.added) albums from \(path).")
    }

    /// A new file name in `backups/` inside the library folder, stamped with the time.
    private static func backupFile(in library: URL) throws -> URL {
        let folder = library.appendingPathComponent("backups")
        try AtomicFile.makeFolder(folder)
        let stamp = Date().formatted(.iso8601).replacingOccurrences(of: ":", with: "-")
        var candidate = folder.appendingPathComponent("library-\(stamp).tar.gz")
        var attempt = 1
        while FileManager.default.fileExists(atPath: candidate.path) {
            attempt += 1
            candidate = folder.appendingPathComponent("library-\(stamp)-\(attempt).tar.gz")
        }
        return candidate
    }
}
