/// How `import` runs: what to do with duplicates, whether to write at all, and which source
/// to read the inputs with.
public struct ImportOptions: Sendable, Hashable {
    /// What to do with an album the library already holds.
    public var onDuplicate: DuplicatePolicy
    /// Report the plan; write nothing.
    public var dryRun: Bool
    /// Read every input with the source registered under this name (`import --format`),
    /// instead of the one that recognises it.
    public var format: String?

    /// Options with these values; the defaults are `skip`, a real import, sources by content.
    public init(onDuplicate: DuplicatePolicy = .skip, dryRun: Bool = false, format: String? = nil) {
        self.onDuplicate = onDuplicate
        self.dryRun = dryRun
        self.format = format
    }
}

/// What to do with a duplicate on import (`--on-duplicate`).
public enum DuplicatePolicy: String, Sendable, CaseIterable, Codable {
    /// Leave the stored album; drop the incoming one (the default).
    case skip
    /// Overwrite the stored album's fields with the incoming ones, keeping its id and place.
    case replace
    /// Add the incoming album as well, under a new id.
    case keep
}
