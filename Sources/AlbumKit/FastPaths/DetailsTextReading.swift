/// A store that keeps each album's details as text (``Album/detailsJSON``) and can hand that
/// text over unparsed where it is in the writer's form (``WriterFormDetails``): an export then
/// copies it into its album objects instead of reading it into ``AlbumDetails`` and writing it
/// back (BENCHMARKS.md: the `.tar.zst` export). Reached through ``ExportContents/readWithText(inRunsOf:into:)``.
///
/// For this package's own modules, not part of the toolkit's API.
package protocol DetailsTextReading: StorageBackend {
    /// What ``StorageBackend/load(pagesOf:details:lookups:into:)`` reads with every field and
    /// the lookup answers, each album's details as their text where it is in the writer's form.
    func loadWithText(pagesOf size: Int, into piece: @escaping @Sendable (PieceWithText) -> Void) async throws
}

/// A ``LibraryPiece`` whose albums may carry their details as text.
package enum PieceWithText: Sendable {
    /// The memento, handed over before any album.
    case state(LibraryState)
    /// The next albums in library order.
    case albums([AlbumWithText])
}

/// An album as a store read it: its details in ``album`` or, when ``details`` is set, as
/// that text alone. Never both: an album written with both would have each key written twice,
/// so the initializer refuses an album with details beside a text, and neither part can be
/// changed after.
package struct AlbumWithText: Sendable {
    /// The album: the core six, and its details unless ``details`` holds them.
    package let album: Album
    /// The album's details as text in the writer's form, or nil when ``album`` holds them.
    package let details: WriterFormDetails?

    /// `album`, its details (if any) as `details`; when `details` is given, `album`'s own
    /// details must be empty (a precondition).
    package init(_ album: Album, details: WriterFormDetails? = nil) {
        precondition(details == nil || album.details.isEmpty, "an album's details either in the album or as text, never both")
        self.album = album
        self.details = details
    }
}
