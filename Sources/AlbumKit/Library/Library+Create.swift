import Foundation

/// What a new library starts with.
public enum LibrarySeed: Sendable, Hashable {
    /// Nothing.
    case empty
    /// The starter albums and covers AlbumKit carries.
    case starter
    /// The albums, memento and covers of a bundle or list (checked whole before anything is
    /// created).
    case input(URL)
}

extension Library {
    /// Whether the library `configuration` selects exists.
    public static func exists(_ configuration: Configuration, registry: AdapterRegistry) async throws -> Bool {
        try await registry.makeStorage(for: configuration).exists()
    }

    /// Creates the library `configuration` selects, with `seed` in it, and opens it. An
    /// existing library is an error and is never touched; an input that is refused leaves
    /// nothing behind.
    public static func create(
        _ configuration: Configuration, registry: AdapterRegistry, hub: NotificationHub, seed: LibrarySeed = .empty
    ) async throws -> Library {
        let storage = try registry.makeStorage(for: configuration)
        if case .input(let input) = seed {
            let found = try await verify(input: input, configuration: configuration, registry: registry)
            if let problem = found.problems.first {
                throw AlbumKitError(.unreadableInput, "\(problem) (\(found.problems.count) problem\(found.problems.count == 1 ? "" : "s") in \(input.path); no library was created)")
            }
        }
        if try await storage.exists() {
            throw AlbumKitError(.libraryState, "a library already exists at \(storage.location); it was left as it is")
        }
        try await storage.create()
        LibraryFolderMarker.write(for: configuration)
        let library = try await open(storage, hub: hub, configuration: configuration, registry: registry)
        switch seed {
        case .empty:
            break
        case .starter:
            try await library.replaceAll(with: try await StarterLibrary.load(into: storage.covers))
        case .input(let input):
            try await library.restore(from: input)
        }
        return library
    }
}
