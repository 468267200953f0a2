/// Where a library lives: a file, a bundle, a database.
///
/// ## Implementation requirements
/// - ``load()`` returns the albums in order and the memento exactly as last saved; a library
///   that was never created throws ``AlbumKitError/Kind/libraryState``; a damaged one throws
///   ``AlbumKitError/Kind/unreadableInput`` naming the file or table, and is left untouched.
/// - ``beginWrite()`` takes the writer lock, waiting up to the configured timeout for another
///   writer (process or task) to finish, then throws ``AlbumKitError/Kind/lockTimeout``.
///   Everything between it and ``StorageWriter/finish()`` is one atomic step: readers see the
///   library before or after it, never in between, and a crash leaves the old library.
/// - ``create()`` makes an empty library and fails if one exists.
/// - Covers live with the library (``covers``), so moving one moves the other.
public protocol StorageBackend: Sendable {
    /// Where the library is, for messages ("/home/me/.local/share/albumkit/library.json").
    var location: String { get }
    /// The content-addressed cover bytes kept with this library.
    var covers: any CoverStore { get }
    /// Whether a library exists here.
    func exists() async throws -> Bool
    /// Creates an empty library; fails when one exists.
    func create() async throws
    /// Reads the whole library without taking the writer lock.
    func load() async throws -> LibrarySnapshot
    /// Takes the writer lock and returns the session that reads and saves under it.
    func beginWrite() async throws -> any StorageWriter
}

/// A session holding the writer lock of a ``StorageBackend``.
///
/// ## Implementation requirements
/// ``load()`` sees every change other writers committed before the lock was taken.
/// ``save(_:change:)`` persists atomically; a whole-file backend may rewrite the file, a
/// database backend should apply only `change`. ``finish()`` releases the lock and must be
/// safe to call more than once; a writer that is dropped without it releases the lock too.
public protocol StorageWriter: Sendable {
    /// The library as it is now, under the lock. Creates nothing.
    func load() async throws -> LibrarySnapshot
    /// Persists `snapshot`, which is the loaded snapshot with `change` applied.
    func save(_ snapshot: LibrarySnapshot, change: StoredChange) async throws
    /// Releases the lock.
    func finish() async
}

/// What a save changed, so that a backend can write only that.
public enum StoredChange: Sendable, Hashable {
    /// These edits were applied, and the state (current album, history) changed with them.
    case edits([LibraryEdit])
    /// Only the state changed (a selection, or an undo/redo that moved history).
    case stateOnly
    /// Everything was replaced (restore, migrate).
    case replaceAll
}

extension StorageBackend {
    /// Runs `body` under the writer lock with the library as it is now, releasing the lock
    /// however `body` ends.
    public func withWriter<T: Sendable>(
        _ body: (any StorageWriter, LibrarySnapshot) async throws -> T
    ) async throws -> T {
        let writer = try await beginWrite()
        do {
            let result = try await body(writer, try await writer.load())
            await writer.finish()
            return result
        } catch {
            await writer.finish()
            throw error
        }
    }
}
