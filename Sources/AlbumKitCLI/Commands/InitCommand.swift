import AlbumKit
import ArgumentParser
import Foundation

/// `albumkit init [--starter [PATH]]`: create an empty library, or one holding the starter
/// albums — those the binary carries, or those of a starter bundle or folder at PATH.
struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a new library.",
        discussion: "An existing library is an error and is never touched. A starter PATH is checked whole first: when it is refused, nothing is created.")

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
        let seed: LibrarySeed = !starter ? .empty : starterPath.map { .input(URL(fileURLWithPath: $0)) } ?? .starter
        let library = try await Library.create(context.configuration, registry: context.registry, hub: context.hub, seed: seed)
        let count = try await library.count()
        print(starter ? "Created a library with \(count) starter albums at \(library.location)." : "Created an empty library at \(library.location).")
    }
}
