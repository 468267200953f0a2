import AlbumKit
import ArgumentParser

/// `albumkit init [--starter]`: create an empty library, or one holding the starter albums.
struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Create a new library.",
        discussion: "An existing library is an error and is never touched.")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Fill the new library with the five starter albums the binary carries.")
    var starter = false

    func run() async throws {
        let context = try global.makeContext()
        defer { context.close() }
        let storage = try context.storage()
        try await storage.create()
        guard starter else {
            print("Created an empty library at \(storage.location).")
            return
        }
        let snapshot = try await StarterLibrary.load(into: storage.covers)
        let library = try await Library.open(storage, hub: context.hub)
        try await library.replaceAll(with: snapshot)
        print("Created a library with \(snapshot.albums.count) starter albums at \(storage.location).")
    }
}
