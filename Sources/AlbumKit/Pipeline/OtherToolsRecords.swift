/// The repair an album from a file another tool wrote goes through as it is read (SPEC 9): its
/// text repaired where the repair is certain (then checked: ``ImportItem/check(givingID:)``;
/// a record that still breaks a field rule is skipped, with the reason).
extension AlbumRecord {
    /// The record with each run of control characters in its text (tab aside, which SPEC 1
    /// allows) turned into one space — in every field, tracks, tags, ids and `fields` included;
    /// `notes` keeps its line breaks: exports hold titles with a line break or a stray escape,
    /// and the field rules refuse control characters.
    func repairingControlCharacters() -> AlbumRecord {
        var record = self
        // Each text set only when it holds a control character, as hardly any does: set
        // anyway, every text of every record was copied and the cover's reference made again.
        if title.hasControlCharacters() { record.title = title.replacingControlCharacters() }
        if artist.hasControlCharacters() { record.artist = artist.replacingControlCharacters() }
        if genre.hasControlCharacters() { record.genre = genre.replacingControlCharacters() }
        if year.hasControlCharacters() { record.year = year.replacingControlCharacters() }
        if let coverUrl, coverUrl.hasControlCharacters() { record.coverUrl = coverUrl.replacingControlCharacters() }
        guard !details.isEmpty else { return record }
        // The values set, by place, not each field looked up; a field's rule looked up only for
        // a value that holds a control character or a line break.
        for (place, value) in details.values.enumerated() {
            guard let value, value.hasControlCharacters() else { continue }
            let field = AlbumField.scalars[place]
            let keepingLineBreaks = field.kind == .notes
            if value.hasControlCharacters(keepingLineBreaks: keepingLineBreaks) {
                record[field] = value.replacingControlCharacters(keepingLineBreaks: keepingLineBreaks)
            }
        }
        // Each part set only when it holds a control character, as hardly any does: set
        // anyway, every map of every record was made again.
        if tags.contains(where: { $0.hasControlCharacters() }) { record.tags = tags.map { $0.replacingControlCharacters() } }
        if ids.values.contains(where: { $0.hasControlCharacters() }) { record.ids = ids.mapValues { $0.replacingControlCharacters() } }
        if fields.values.contains(where: { $0.hasControlCharacters() }) { record.fields = fields.mapValues { $0.replacingControlCharacters() } }
        guard !tracks.isEmpty else { return record }
        record.tracks = tracks.map { track in
            var track = track
            track.title = track.title.replacingControlCharacters()
            track.artist = track.artist?.replacingControlCharacters()
            track.ids = track.ids.mapValues { $0.replacingControlCharacters() }
            track.fields = track.fields.mapValues { $0.replacingControlCharacters() }
            return track
        }
        return record
    }
}

extension String {
    /// The text with each run of control characters (below space but tab, and DEL; line breaks
    /// too unless `keepingLineBreaks`) replaced by one space; the text itself when it holds
    /// none, as nearly every text does.
    func replacingControlCharacters(keepingLineBreaks: Bool = false) -> String {
        guard hasControlCharacters(keepingLineBreaks: keepingLineBreaks) else { return self }
        var repaired = String.UnicodeScalarView()
        var inRun = false
        for scalar in unicodeScalars {
            let control = Self.isControl(scalar.value, keepingLineBreaks: keepingLineBreaks)
            if control {
                if !inRun { repaired.append(" ") }
            } else {
                repaired.append(scalar)
            }
            inRun = control
        }
        return String(repaired)
    }

    /// Whether the text holds a control character ``replacingControlCharacters(keepingLineBreaks:)`` replaces.
    func hasControlCharacters(keepingLineBreaks: Bool = false) -> Bool {
        withUTF8Bytes { bytes in bytes.contains { Self.isControl(UInt32($0), keepingLineBreaks: keepingLineBreaks) } }
    }

    /// Below space but tab, and DEL; line breaks too unless `keepingLineBreaks`.
    private static func isControl(_ value: UInt32, keepingLineBreaks: Bool) -> Bool {
        (value < 0x20 && value != 0x09 && !(keepingLineBreaks && (value == 0x0A || value == 0x0D))) || value == 0x7F
    }
}
