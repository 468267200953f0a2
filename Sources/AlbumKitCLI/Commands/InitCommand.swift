import AlbumKit
import ArgumentParser
import Foundation

/// `albumkit init [--starter [PATH]]`: create an empty library, or one holding the starter
/// albums — those the binary carries, or those of a starter bundle or folder at PATH.
struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a new library.",
        discussion: "An existing library is an error and is never touched.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Fill the new library with the starter albums (those the binary carries, or those of PATH).")
    var starter = false

    @Argument(help: ArgumentHelp("With --starter: a starter bundle or folder, such as Bundles/starter.tar.gz.", valueName: "path"))
    var starterPath: String?

    func validate() throws {
        if starterPath != nil && !starter { throw ValidationError("a starter PATH needs --starter") }
    }

    func run() async throws {
        let context = try global.makeContext()
        defer { context.close() }
        let storage = try context.storage()
        try await storage.create()
        guard starter else {
            print("Created an empty library at \(storage.location).")
            return
        }
        let library = try await Library.open(storage, hub: context.hub)
        let count: Int
        if let starterPath {
            let pipeline = RestorePipeline(
                registry: context.registry, limits: context.configuration.limits,
                stagingParent: context.configuration.libraryDirectory)
            count = try await pipeline.run(URL(fileURLWithPath: starterPath), into: library).added
        } else {
            let snapshot = try await StarterLibrary.load(into: storage.covers)
            try await library.replaceAll(with: snapshot)
            count = snapshot.albums.count
        }
        print("Created a library with \(count) starter albums at \(storage.location).")
    }
}
