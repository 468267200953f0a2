/// Catching up with changes other processes saved — what a long-running caller (`serve`)
/// needs, since a command only ever sees the library as it opened it.
extension Library {
    /// Reads the library again and, when another writer changed it since this process last
    /// read or wrote it, adopts it and publishes `library.changedElsewhere`. Returns whether it
    /// changed. Cheap when nothing changed: a file backend answers from what it remembers of
    /// the unchanged file; a database backend compares its memento, which every save changes.
    @discardableResult
    public func reloadIfChanged() async throws -> Bool {
        if let reads = storage.pointReads {
            var state = try await reads.state()
            guard state != memento else { return false }
            if let current = state.current, try await reads.index(of: current) == nil { state.current = nil }
            memento = state
            hub.publish(.changedElsewhere(location: location, albumCount: try await reads.count()))
            return true
        }
        var loaded = try await storage.load()
        // After a change that appended a run it never held, this process knows the memento it
        // saved, which every save changes.
        guard loaded.state != memento || (held != nil && loaded.albums != held) else { return false }
        // As `open` does: a current album another process removed is dropped.
        if let current = loaded.state.current, loaded.index(of: current) == nil { loaded.state.current = nil }
        held = loaded.albums
        memento = loaded.state
        hub.publish(.changedElsewhere(location: location, albumCount: loaded.albums.count))
        return true
    }

    /// The backend's feed of saves by any writer, when it has one (PostgreSQL's NOTIFY).
    public nonisolated var changeFeed: (any StorageChangeFeed)? { storage as? any StorageChangeFeed }

    /// The backend's notices between processes and hosts, when it carries them (PostgreSQL's
    /// NOTIFY); the cover events of a fetch go through them (``CoverFetchNotices``).
    public nonisolated var notices: (any StorageNotices)? { storage as? any StorageNotices }
}
