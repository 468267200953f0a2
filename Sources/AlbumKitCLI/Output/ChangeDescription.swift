import AlbumKit

/// Changes to the library in words, naming albums by title: `moved 'Low' from 7 to 1`,
/// `updated 'Low': year 1976 → 1977`, `import: added 3 albums: 'A' at 6, …`.
enum ChangeDescription {
    /// How many albums of one kind of edit are named before "and N more".
    static let named = 5

    /// `change` in words; `titles` names the albums that moves mention only by id.
    static func describe(_ change: LibraryChange, titles: [AlbumID: String]) -> String {
        var inserted: [(Album, Int)] = []
        var removed: [(Album, Int)] = []
        var updated: [(Album, Album)] = []
        var moved: [(AlbumID, Int, Int)] = []
        for edit in change.edits {
            switch edit {
            case .insert(let album, let index): inserted.append((album, index))
            case .remove(let album, let index): removed.append((album, index))
            case .update(let before, let after): updated.append((before, after))
            case .move(let id, let from, let to): moved.append((id, from, to))
            }
        }
        var parts: [String] = []
        if !inserted.isEmpty { parts.append(list("added", inserted.map { "'\($0.0.title)' at \($0.1 + 1)" })) }
        if !removed.isEmpty {
            parts.append(list("removed", removed.sorted { $0.1 < $1.1 }.map { "'\($0.0.title)' from \($0.1 + 1)" }))
        }
        if updated.count == 1 {
            parts.append(update(updated[0].0, updated[0].1))
        } else if !updated.isEmpty {
            parts.append(list("updated", updated.map { "'\($0.1.title)' (\(differences($0.0, $0.1)))" }))
        }
        for (id, from, to) in moved { parts.append("moved '\(titles[id] ?? id.rawValue)' from \(from + 1) to \(to + 1)") }
        let text = parts.isEmpty ? change.label : parts.joined(separator: "; ")
        return change.label.hasPrefix("import") ? "import: \(text)" : text
    }

    /// `updated 'Low': year 1976 → 1977, genre '' → 'Art rock'`.
    static func update(_ before: Album, _ after: Album) -> String {
        "updated '\(after.title)': \(differences(before, after))"
    }

    /// The fields that differ, each as `field old → new`.
    static func differences(_ before: Album, _ after: Album) -> String {
        var fields: [(String, String, String)] = [
            ("title", quoted(before.title), quoted(after.title)), ("artist", quoted(before.artist), quoted(after.artist)),
            ("genre", quoted(before.genre), quoted(after.genre)), ("year", year(before.year), year(after.year)),
            ("cover", before.coverUrl.map(quoted) ?? "none", after.coverUrl.map(quoted) ?? "none"),
        ]
        fields += AlbumField.scalars.map { ($0.name, before[$0].map(quoted) ?? "none", after[$0].map(quoted) ?? "none") }
        fields.append(("tags", quoted(before.tags.joined(separator: ", ")), quoted(after.tags.joined(separator: ", "))))
        fields.append(("tracks", "\(before.tracks.count) tracks", before.tracks == after.tracks ? "\(before.tracks.count) tracks" : "\(after.tracks.count) tracks (changed)"))
        for (prefix, old, new) in [("ids.", before.ids, after.ids), ("", before.fields, after.fields)] {
            for name in Set(old.keys).union(new.keys).sorted() {
                fields.append((prefix + name, old[name].map(quoted) ?? "none", new[name].map(quoted) ?? "none"))
            }
        }
        let changed = fields.filter { $0.1 != $0.2 }.map { "\($0.0) \($0.1) → \($0.2)" }
        return changed.isEmpty ? "no change" : changed.joined(separator: ", ")
    }

    /// `text` with its first letter capitalised, to open a sentence.
    static func sentence(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }

    /// `verb 'A' …` for one item; `verb N albums: 'A' …, 'B' …, and M more` for several.
    private static func list(_ verb: String, _ items: [String]) -> String {
        guard items.count > 1 else { return "\(verb) \(items[0])" }
        let more = items.count > named ? ", and \(items.count - named) more" : ""
        return "\(verb) \(items.count) albums: \(items.prefix(named).joined(separator: ", "))\(more)"
    }

    private static func quoted(_ text: String) -> String { "'\(text)'" }
    private static func year(_ text: String) -> String { text.isEmpty ? "none" : text }
}
