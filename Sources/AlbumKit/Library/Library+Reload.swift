/// Catching up with changes other processes saved — what a long-running caller (`serve`)
/// needs, since a command only ever sees the library as it opened it.
extension Library {
    /// Loads the library again and, when another writer changed it since this process last
    /// read or wrote it, adopts the stored library and publishes `library.stateRestored`.
    /// Returns whether it changed. Cheap when nothing changed on backends that cache by
    /// generation (a comparison of the same arrays); the adoption runs under the writer
    /// lock, so readers of ``snapshot`` see the library before or after, never between.
    @discardableResult
    public func reloadIfChanged() async throws -> Bool {
        guard try await storage.load() != snapshot else { return false }
        return try await write { snapshot in
            // As `open` does: a current album another process removed is dropped.
            if let current = snapshot.state.current, snapshot.index(of: current) == nil { snapshot.state.current = nil }
            let state = snapshot.state
            return (true, nil, [.stateRestored(current: state.current, undoSteps: state.undo.count, redoSteps: state.redo.count)])
        }
    }
}
