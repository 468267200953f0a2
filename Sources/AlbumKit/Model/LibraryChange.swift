/// One step of history: everything one command changed, undone as a whole.
/// Stored as `{"label":"remove 2","edits":[…]}`.
public struct LibraryChange: Hashable, Sendable, Codable {
    /// What the change did, in words ("add 'Low'", "import 3 albums").
    public var label: String
    /// The edits in the order they were applied.
    public var edits: [LibraryEdit]

    public init(label: String, edits: [LibraryEdit]) {
        self.label = label
        self.edits = edits
    }

    /// The change that takes this one back: the inverse edits in reverse order.
    public var inverse: LibraryChange {
        LibraryChange(label: label, edits: edits.reversed().map(\.inverse))
    }
}
