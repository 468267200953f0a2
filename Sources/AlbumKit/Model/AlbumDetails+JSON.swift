import Foundation

extension Album {
    /// The album's fields beyond the core six as one JSON object (the keys and values an album
    /// object has for them, sorted), nil when it has none: what a store that keeps the core
    /// fields in columns keeps in one more.
    package var detailsJSON: String? {
        guard !details.isEmpty else { return nil }
        return JSONOutput.text { try $0.details(of: self) }
    }
}

extension AlbumDetails {
    /// The details of an object ``Album/detailsJSON`` wrote (not yet checked: an album made
    /// with them checks them); with `fields`, only those (the others are skipped unread).
    package init(json text: String, only fields: Set<AlbumField>? = nil) throws {
        var text = text
        self = try text.withUTF8 { utf8 in
            var cursor = JSONCursor(utf8)
            let details = try cursor.albumDetails(only: fields)
            try cursor.end()
            return details
        }
    }
}
