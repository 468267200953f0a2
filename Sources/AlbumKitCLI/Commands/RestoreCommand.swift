import AlbumKit
import ArgumentParser
import Foundation

/// `albumkit restore BUNDLE [--force]`: replace the library's albums, state and covers with a
/// bundle's. A library that is not empty needs `--force`, and is first saved as a bundle in
/// `backups/` inside the library folder. Where there is no library yet, one is created.
/// Not a step of history.
struct RestoreCommand: AsyncParsableCommand, FlatMemoryCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Replace the library with a bundle's albums, state and covers.",
        discussion: """
            The bundle is read and checked whole before anything is written. A library that is not \
            empty is replaced only with --force, and is first saved to backups/ in the library folder. \
            Where no library exists yet, the bundle becomes a new one (nothing is created if it is \
            refused). A restore cannot be undone with 'undo'.
            """)

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The bundle (or unpacked bundle folder) to restore.") var path: String
    @Flag(help: "Replace a library that is not empty (it is saved to backups/ first).") var force = false

    func run() async throws {
        let input = URL(fileURLWithPath: path)
        let context = try global.makeContext(progress: true)
        defer { context.close() }
        guard try await Library.exists(context.configuration, registry: context.registry) else {
            let library = try await Library.create(context.configuration, registry: context.registry, hub: context.hub, seed: .input(input))
            print("Created a library at \(library.location) from \(path) (\(try await library.count()) albums).")
            return
        }
        let report = try await context.openLibrary().restore(from: input, force: force)
        if let backup = report.backup { print("Saved the library it replaces to \(backup).") }
        for warning in report.warnings { Console.warning(warning) }
        print("Restored \(report.albums) albums from \(path).")
    }
}
