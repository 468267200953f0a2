/// How `import` runs: what to do with duplicates, whether to write at all, which source to
/// read the inputs with, and whether a record that cannot be an album refuses its input.
public struct ImportOptions: Sendable, Hashable {
    /// What to do with an album the library already holds.
    public var onDuplicate: DuplicatePolicy
    /// Report the plan; write nothing.
    public var dryRun: Bool
    /// Read every input with the source registered under this name (`import --format`),
    /// instead of the one that recognises it.
    public var format: String?
    /// Refuse an input another tool wrote when any of its records cannot be an album, instead of
    /// skipping and reporting those records (`import --strict`).
    public var strict: Bool

    /// Options with these values; the defaults are `skip`, a real import, sources by content,
    /// records that cannot be albums skipped.
    public init(onDuplicate: DuplicatePolicy = .skip, dryRun: Bool = false, format: String? = nil, strict: Bool = false) {
        self.onDuplicate = onDuplicate
        self.dryRun = dryRun
        self.format = format
        self.strict = strict
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
