/// The repair and the check an album from a file another tool wrote goes through as it is read
/// (SPEC 9): its text repaired where the repair is certain, then, when it still breaks a field
/// rule, the reason it is skipped.
extension AlbumRecord {
    /// The record with each run of control characters in its text (tab aside, which SPEC 1
    /// allows) turned into one space: exports hold titles with a line break or a stray
    /// escape, and the field rules refuse control characters.
    func repairingControlCharacters() -> AlbumRecord {
        var record = self
        record.title = title.replacingControlCharacters()
        record.artist = artist.replacingControlCharacters()
        record.genre = genre.replacingControlCharacters()
        record.year = year.replacingControlCharacters()
        if let coverUrl { record.coverUrl = coverUrl.replacingControlCharacters() }
        return record
    }

    /// Why the record cannot be an album, or nil when it obeys the field rules.
    func problem(label: AlbumLabel) -> String? {
        do {
            _ = try validated(newID: AlbumID(rawValue: "x"), label: label.description)
            return nil
        } catch {
            return error.description
        }
    }
}

extension String {
    /// The text with each run of control characters (below space but tab, and DEL) replaced by
    /// one space; the text itself when it holds none, as nearly every text does.
    func replacingControlCharacters() -> String {
        guard utf8.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else { return self }
        var repaired = String.UnicodeScalarView()
        var inRun = false
        for scalar in unicodeScalars {
            let isControl = (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7F
            if isControl {
                if !inRun { repaired.append(" ") }
            } else {
                repaired.append(scalar)
            }
            inRun = isControl
        }
        return String(repaired)
    }
}
