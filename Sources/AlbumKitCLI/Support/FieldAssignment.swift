import AlbumKit
import ArgumentParser

/// `--set NAME=VALUE` and `--unset NAME` of `add` and `update`: each names a field as
/// ``AlbumPatch/set(_:to:)`` takes it.
enum FieldAssignment {
    /// The help of `--set`.
    static let setHelp = ArgumentHelp(
        "Set a field: any of 'albumkit help fields' (label=Warp, rating=4.5, released=1977-01-14, tags='ambient, drone'), ids.NAME, or a field of your own (mood=calm, discogs.folder=Jazz). Repeatable.",
        valueName: "name=value")
    /// The help of `--unset`.
    static let unsetHelp = ArgumentHelp("Remove a field (label, tags, ids.discogs, mood, …). Repeatable.", valueName: "name")

    /// `patch` with every `--set` and `--unset` applied; a malformed one is a usage error.
    static func apply(sets: [String], unsets: [String], to patch: inout AlbumPatch) throws {
        for text in sets {
            guard let equals = text.firstIndex(of: "=") else { throw ValidationError("--set takes name=value, not '\(text)'") }
            do {
                try patch.set(String(text[..<equals]), to: String(text[text.index(after: equals)...]))
            } catch {
                throw ValidationError("--set: \(error.description)")
            }
        }
        for name in unsets {
            do {
                try patch.unset(name)
            } catch {
                throw ValidationError("--unset: \(error.description)")
            }
        }
    }
}
