import Foundation

/// Copies a library — albums, order, ids, covers and memento — from one backend to another
/// and proves the copy, the work behind `albumkit migrate`.
///
/// The source is only read, under its writer lock (so no change slips in during the copy
/// and is lost), and stays as it was. Covers go first, then the albums and memento in one
/// `replaceAll` save, which every backend makes atomically: a copy killed half-way leaves
/// the destination absent, empty, or holding covers no album uses yet — never a library
/// that looks complete. The copy is then read back and compared, counts and a content hash
/// over both sides, and every copied cover is re-hashed.
public struct Migration: Sendable {
    /// Where the library is now.
    public let source: any StorageBackend
    /// Where it goes.
    public let destination: any StorageBackend
    /// Where progress goes: `migrate.started`, `migrate.progress` per cover copied.
    public let hub: NotificationHub

    /// A migration from `source` to `destination`, announcing its progress on `hub`.
    public init(from source: any StorageBackend, to destination: any StorageBackend, hub: NotificationHub) {
        self.source = source
        self.destination = destination
        self.hub = hub
    }

    /// Copies and verifies; returns what was copied. The destination must be absent or an
    /// empty library (or already an exact copy, left by a migrate that stopped before it
    /// could switch the configuration); one that holds another library is replaced only when
    /// `backingUp` is given, which saves that library first (a backup bundle) and returns where.
    public func run(backingUp: (@Sendable (ExportContents) async throws -> URL)? = nil) async throws -> MigrationReport {
        guard source.location != destination.location else {
            throw AlbumKitError(.configuration, "cannot migrate \(source.location) onto itself; name another --path or --url")
        }
        return try await source.withWriter { writer, snapshot in
            let coverKeys = try await source.covers.keys()
            let steps = try await writer.steps(snapshot.state.stepIDs)
            let expected = try LibraryDigest(snapshot: snapshot, steps: steps, covers: coverKeys)
            var backup: URL?
            if try await destination.exists() {
                let existing = try await destination.load()
                let existingSteps = try await destination.steps(existing.state.stepIDs)
                let existingDigest = try? LibraryDigest(snapshot: existing, steps: existingSteps, covers: try await destination.covers.keys())
                if !existing.albums.isEmpty && existingDigest != expected {
                    guard let backingUp else {
                        throw AlbumKitError(.libraryState, "\(destination.location) already holds a library of \(existing.albums.count) albums; add --replace to replace it (it is saved to backups/ first), or choose another --path/--url; nothing was changed")
                    }
                    backup = try await backingUp(ExportContents(snapshot: existing, covers: destination.covers, steps: { _ in existingSteps }))
                }
            } else {
                try await destination.create()
            }
            hub.publish(.migrateStarted(from: source.location, to: destination.location, albums: snapshot.albums.count))
            let coverBytes = try await copyCovers(coverKeys)
            try await destination.withWriter { writer, _ in try await writer.save(snapshot, change: .replaceAll(steps: steps)) }
            let copied = try await destination.load()
            let actual = try LibraryDigest(snapshot: copied, steps: try await destination.steps(copied.state.stepIDs), covers: try await destination.covers.keys())
            guard actual == expected else {
                throw AlbumKitError(.libraryState, "the copy in \(destination.location) does not match \(source.location) (\(expected.summary) there, \(actual.summary) here); the configuration was not switched and \(source.location) stays in use")
            }
            try await verifyCoverBytes(coverKeys)
            return MigrationReport(
                albums: snapshot.albums.count, covers: coverKeys.count, coverBytes: coverBytes,
                historySteps: snapshot.state.undo.count + snapshot.state.redo.count, digest: actual.hash, backup: backup?.path)
        }
    }

    /// Copies the covers the destination lacks; returns the bytes copied.
    private func copyCovers(_ keys: [CoverKey]) async throws -> Int64 {
        LeftoverFiles.sweepCovers(of: destination.covers)
        var copied: Int64 = 0
        for (number, key) in keys.enumerated() where try await !destination.covers.contains(key) {
            guard let bytes = try await source.covers.data(for: key) else {
                throw AlbumKitError(.unreadableInput, "\(source.location): cover \(key) is listed but cannot be read; nothing was switched")
            }
            let stored = try await destination.covers.put(bytes, fileExtension: key.fileExtension)
            guard stored == key else {
                throw AlbumKitError(.unreadableInput, "\(source.location): cover \(key) holds bytes whose SHA-256 is \(stored.sha256); nothing was switched")
            }
            copied += Int64(bytes.count)
            hub.publish(.migrateProgress(to: destination.location, coversCopied: number + 1, totalCovers: keys.count, bytesCopied: copied))
        }
        return copied
    }

    private func verifyCoverBytes(_ keys: [CoverKey]) async throws {
        for key in keys {
            guard let bytes = try await destination.covers.data(for: key), CoverKey(bytes: bytes, fileExtension: key.fileExtension) == key else {
                throw AlbumKitError(.libraryState, "cover \(key) did not copy intact to \(destination.location); the configuration was not switched")
            }
        }
    }
}

/// What a ``Migration`` copied.
public struct MigrationReport: Sendable, Hashable {
    /// Albums copied.
    public var albums: Int
    /// Covers copied.
    public var covers: Int
    /// Bytes of covers copied.
    public var coverBytes: Int64
    /// Undo and redo steps copied.
    public var historySteps: Int
    /// The content hash both sides agreed on (hex SHA-256).
    public var digest: String
    /// Where the destination's former library was saved, when it was replaced.
    public var backup: String?
}

/// Counts and a SHA-256 over a library's albums (in order, every field), its memento and
/// its cover keys — equal for two libraries exactly when they hold the same content.
public struct LibraryDigest: Sendable, Hashable {
    /// Albums counted.
    public var albums: Int
    /// Covers counted.
    public var covers: Int
    /// The hex SHA-256 of the canonical JSON of albums, memento and sorted cover names.
    public var hash: String

    /// The digest of `snapshot`, whose history steps are `steps`, with the covers `covers`.
    /// The steps count by content and order (as `state.json` holds them), not by the ids a
    /// backend gave them. Throws when the memento names a step that is not among `steps`.
    public init(snapshot: LibrarySnapshot, steps: [Int64: HistoryStep], covers: [CoverKey]) throws {
        struct Canonical: Encodable {
            let albums: [Album]
            let state: StateFile
            let covers: [String]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let canonical = Canonical(albums: snapshot.albums, state: try StateFile(snapshot.state, steps: steps), covers: covers.sorted().map(\.fileName))
        // Encoding plain strings and arrays cannot fail; an empty hash would never match.
        let data = (try? encoder.encode(canonical)) ?? Data()
        albums = snapshot.albums.count
        self.covers = covers.count
        hash = SHA256Digest.hex(of: data)
    }

    /// "N albums, M covers, sha256 abcdef012345…".
    public var summary: String { "\(albums) albums, \(covers) covers, sha256 \(hash.prefix(12))…" }
}
